#include "scheduler/placers/moirai/moirai_model.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace placesim::scheduler::moirai {
namespace {

using milp::Term;
using milp::VarId;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kScale = 100;  // M in model units

bool has(VarId v) { return v.index >= 0; }

// The terms on variables that exist (an x of a slot a task cannot use is 0).
std::vector<Term> live(std::vector<Term> terms) {
  std::erase_if(terms, [](const Term& t) { return !has(t.var); });
  return terms;
}

// Slots a and b are interchangeable: every datum of the instance is the same under swapping them.
bool identical(const Instance& in, int a, int b) {
  if (in.capacity[a] != in.capacity[b] || in.device_avail[a] != in.device_avail[b]) return false;
  for (int i = 0; i < in.tasks(); ++i)
    if (in.dur[i][a] != in.dur[i][b] || !in.is_free(i)) return false;
  for (const ParamUse& w : in.params)
    if (w.resident[a] != w.resident[b]) return false;
  auto same = [&](const std::vector<std::vector<double>>& m) {
    if (m[a][b] != m[b][a]) return false;
    for (int c = 0; c < in.slots; ++c)
      if (c != a && c != b && (m[a][c] != m[b][c] || m[c][a] != m[c][b])) return false;
    return true;
  };
  if (!same(in.channel_avail)) return false;
  return std::all_of(in.flows.begin(), in.flows.end(), [&](const Flow& f) { return same(f.time); });
}

// Bounds on every schedule: each task at its fastest, each transfer at its cheapest (free when
// producer and consumer can share a slot). est: earliest start; tail: the least time from a
// task's end to the makespan. With T <= M, task i runs within [est_i, M - tail_i].
struct Bounds {
  std::vector<double> est, fastest, tail;
};

Bounds bounds(const Instance& in) {
  const int n = in.tasks(), K = in.slots;
  Bounds b{std::vector<double>(n, 0.0), std::vector<double>(n, kInf), std::vector<double>(n, 0.0)};
  std::vector<std::vector<int>> in_flows(n), out_flows(n);
  for (size_t q = 0; q < in.flows.size(); ++q) {
    in_flows[in.flows[q].dst].push_back(static_cast<int>(q));
    out_flows[in.flows[q].src].push_back(static_cast<int>(q));
  }
  auto usable = [&](int i, int k) { return in.is_free(i) ? in.dur[i][k] != models::kCannotRun : k == in.fixed_slot[i]; };
  auto cheapest = [&](const Flow& f) {
    double c = kInf;
    for (int a = 0; a < K; ++a)
      for (int d = 0; d < K; ++d)
        if (usable(f.src, a) && usable(f.dst, d)) c = std::min(c, a == d ? 0.0 : f.time[a][d]);
    return c;
  };
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < K; ++k)
      if (usable(i, k)) b.fastest[i] = std::min(b.fastest[i], in.dur[i][k]);
    if (!in.is_free(i)) {
      b.est[i] = in.fixed_start[i];
      continue;
    }
    double s = kInf;
    for (int k = 0; k < K; ++k)
      if (usable(i, k)) s = std::min(s, in.device_avail[k]);
    for (int q : in_flows[i]) {
      const Flow& f = in.flows[q];
      s = std::max(s, b.est[f.src] + b.fastest[f.src] + cheapest(f));
    }
    b.est[i] = s;
  }
  for (int i = n - 1; i >= 0; --i)
    for (int q : out_flows[i]) {
      const Flow& f = in.flows[q];
      b.tail[i] = std::max(b.tail[i], cheapest(f) + b.fastest[f.dst] + b.tail[f.dst]);
    }
  return b;
}

}  // namespace

Built build_model(const Instance& in, double upper_bound_s, bool memory_only) {
  const int n = in.tasks(), K = in.slots, F = static_cast<int>(in.flows.size());
  Built b;
  milp::Model& m = b.model;
  b.unit = upper_bound_s / kScale;
  const double M = kScale;
  auto t = [&](double seconds) { return seconds / b.unit; };

  // (4c) assignment.
  b.x.assign(n, std::vector<VarId>(K));
  for (int i = 0; i < n; ++i) {
    std::vector<Term> one;
    for (int k = 0; k < K; ++k) {
      if (in.is_free(i) ? in.dur[i][k] == models::kCannotRun : k != in.fixed_slot[i]) continue;
      b.x[i][k] = in.is_free(i) ? m.add_binary(fmt::format("x_{}_{}", i, k))
                                : m.add_integer(fmt::format("x_{}_{}", i, k), 1, 1);
      one.push_back({b.x[i][k], 1});
    }
    m.add_eq(fmt::format("c4c_{}", i), one, 1);
  }
  // (5) memory: own bytes per task, each parameter once per slot that holds a reader.
  for (int k = 0; k < K; ++k) {
    if (in.capacity[k] == kInf) continue;
    const double scale = 1 / std::max(in.capacity[k], 1.0);
    std::vector<Term> row;
    for (int i = 0; i < n; ++i)
      if (in.is_free(i) && has(b.x[i][k])) row.push_back({b.x[i][k], in.own_bytes[i] * scale});
    for (size_t w = 0; w < in.params.size(); ++w) {
      const ParamUse& pu = in.params[w];
      if (pu.resident[k] || pu.bytes <= 0) continue;
      const VarId y = m.add_continuous(fmt::format("y_{}_{}", w, k), 0, 1);
      for (int i : pu.readers)
        if (has(b.x[i][k])) m.add_ge(fmt::format("c5y_{}_{}_{}", w, k, i), {{y, 1}, {b.x[i][k], -1}}, 0);
      row.push_back({y, pu.bytes * scale});
    }
    m.add_le(fmt::format("c5_{}", k), row, in.capacity[k] * scale);
  }
  if (memory_only) return b;

  // Symmetry classes (only where no earlier window pinned anything).
  std::vector<bool> classed(K, false);
  for (int a = 0; a < K; ++a) {
    if (classed[a]) continue;
    std::vector<int> cls{a};
    for (int c = a + 1; c < K; ++c)
      if (!classed[c] && std::all_of(cls.begin(), cls.end(), [&](int s) { return identical(in, s, c); }))
        cls.push_back(c), classed[c] = true;
    if (cls.size() > 1) b.classes.push_back(cls);
  }

  const Bounds bd = bounds(in);
  const std::vector<double>& est = bd.est;
  double lower = 0, work = 0, avail = 0;
  for (int k = 0; k < K; ++k) avail += in.device_avail[k];
  b.S.resize(n);
  b.C.resize(n);
  for (int i = 0; i < n; ++i) {
    double fastest = kInf;
    for (int k = 0; k < K; ++k)
      if (has(b.x[i][k])) fastest = std::min(fastest, in.dur[i][k]);
    if (in.is_free(i)) {
      lower = std::max(lower, est[i] + fastest);
      work += fastest;
    }
    const double s_lo = std::min(t(est[i]), M);
    const double s_hi = std::clamp(t(upper_bound_s - bd.tail[i] - fastest), s_lo, M);
    b.S[i] = m.add_continuous(fmt::format("S_{}", i), s_lo, in.is_free(i) ? s_hi : s_lo);
    b.C[i] = m.add_continuous(fmt::format("C_{}", i), 0, M);
    // (4b)
    std::vector<Term> row{{b.C[i], 1}, {b.S[i], -1}};
    for (int k = 0; k < K; ++k)
      if (has(b.x[i][k])) row.push_back({b.x[i][k], -t(in.dur[i][k])});
    m.add_eq(fmt::format("c4b_{}", i), row, 0);
    // Devices busy until earlier windows' work ends.
    if (in.is_free(i) && avail > 0) {
      std::vector<Term> ready{{b.S[i], 1}};
      for (int k = 0; k < K; ++k)
        if (has(b.x[i][k]) && in.device_avail[k] > 0) ready.push_back({b.x[i][k], -t(in.device_avail[k])});
      m.add_ge(fmt::format("avail_{}", i), ready, 0);
    }
  }
  // T is the schedule's end so far: also every device's available time, so the load rows hold
  // for a device the window leaves idle.
  lower = std::max(lower, (work + avail) / K);
  for (int k = 0; k < K; ++k) lower = std::max(lower, in.device_avail[k]);
  b.T = m.add_continuous("T", std::min(t(lower), M), M, 1);
  for (int i = 0; i < n; ++i)
    if (in.is_free(i)) m.add_ge(fmt::format("c4_{}", i), {{b.T, 1}, {b.C[i], -1}}, 0);
  for (int k = 0; k < K; ++k) {
    std::vector<Term> load{{b.T, 1}};
    for (int i = 0; i < n; ++i)
      if (in.is_free(i) && has(b.x[i][k])) load.push_back({b.x[i][k], -t(in.dur[i][k])});
    m.add_ge(fmt::format("load_{}", k), load, t(in.device_avail[k]));
  }
  for (const std::vector<int>& cls : b.classes)
    for (size_t s = 1; s < cls.size(); ++s) {
      std::vector<Term> earlier;
      for (int i = 0; i < n; ++i) {
        if (!has(b.x[i][cls[s]])) continue;  // identical slots: then neither exists
        std::vector<Term> row{{b.x[i][cls[s]], 1}};
        for (const Term& e : earlier) row.push_back({e.var, -1});
        m.add_le(fmt::format("sym_{}_{}", i, cls[s]), row, 0);
        earlier.push_back({b.x[i][cls[s - 1]], 1});
      }
    }

  // Flows: (4a) and (7).
  std::vector<std::vector<std::vector<VarId>>> u(F, std::vector<std::vector<VarId>>(K, std::vector<VarId>(K)));
  b.fS.resize(F);
  b.fC.resize(F);
  for (int q = 0; q < F; ++q) {
    const Flow& f = in.flows[q];
    const int i = f.src, j = f.dst;
    b.fS[q] = m.add_continuous(fmt::format("Sf_{}", q), 0, M);
    b.fC[q] = m.add_continuous(fmt::format("Cf_{}", q), 0, M);
    m.add_ge(fmt::format("c4a_{}_in", q), {{b.fS[q], 1}, {b.C[i], -1}}, 0);
    m.add_ge(fmt::format("c4a_{}_out", q), {{b.S[j], 1}, {b.fC[q], -1}}, 0);
    const VarId z = m.add_continuous(fmt::format("z_{}", q), 0, 1);
    for (int k = 0; k < K; ++k) {
      const VarId xi = b.x[i][k], xj = b.x[j][k];
      if (has(xi) && has(xj)) m.add_le(fmt::format("c7a_{}_{}", q, k), {{z, 1}, {xi, 1}, {xj, 1}}, 2);
      if (has(xi)) m.add_ge(fmt::format("c7b_{}_{}", q, k), live({{z, 1}, {xi, -1}, {xj, 1}}), 0);
      if (has(xj)) m.add_ge(fmt::format("c7c_{}_{}", q, k), live({{z, 1}, {xj, -1}, {xi, 1}}), 0);
    }
    std::vector<Term> pick{{z, -1}}, duration{{b.fC[q], 1}, {b.fS[q], -1}}, channel_ready{{b.fS[q], 1}};
    for (int a = 0; a < K; ++a)
      for (int c = 0; c < K; ++c) {
        if (a == c || !has(b.x[i][a]) || !has(b.x[j][c])) continue;
        if (f.time[a][c] == kInf) {  // no route: never both
          m.add_le(fmt::format("noroute_{}_{}_{}", q, a, c), {{b.x[i][a], 1}, {b.x[j][c], 1}}, 1);
          continue;
        }
        const VarId v = u[q][a][c] = m.add_continuous(fmt::format("u_{}_{}_{}", q, a, c), 0, 1);
        m.add_ge(fmt::format("c7u_{}_{}_{}", q, a, c), {{v, 1}, {b.x[i][a], -1}, {b.x[j][c], -1}}, -1);
        pick.push_back({v, 1});
        duration.push_back({v, -t(f.time[a][c])});
        if (in.channel_avail[a][c] > 0) channel_ready.push_back({v, -t(in.channel_avail[a][c])});
      }
    m.add_eq(fmt::format("c7z_{}", q), pick, 0);
    m.add_eq(fmt::format("c7p_{}", q), duration, 0);
    if (channel_ready.size() > 1) m.add_ge(fmt::format("chavail_{}", q), channel_ready, 0);
  }

  // (6) and (8): one indicator of sharing and one of order per unordered pair.
  auto disjunction = [&](const std::string& tag, int a, int c, VarId Sa, VarId Ca, VarId Sc, VarId Cc,
                         const std::vector<std::pair<VarId, VarId>>& shared, std::vector<Built::Pair>& pairs) {
    if (shared.empty()) return;
    const VarId same = m.add_continuous(fmt::format("{}same_{}_{}", tag, a, c), 0, 1);
    for (size_t s = 0; s < shared.size(); ++s)
      m.add_ge(fmt::format("{}share_{}_{}_{}", tag, a, c, s), {{same, 1}, {shared[s].first, -1}, {shared[s].second, -1}}, -1);
    const VarId before = m.add_binary(fmt::format("{}d_{}_{}", tag, a, c));
    // before = 1: c starts after a ends; before = 0: a after c.
    m.add_ge(fmt::format("{}ab_{}_{}", tag, a, c), {{Sc, 1}, {Ca, -1}, {before, -M}, {same, -M}}, -2 * M);
    m.add_ge(fmt::format("{}ba_{}_{}", tag, a, c), {{Sa, 1}, {Cc, -1}, {before, M}, {same, -M}}, -M);
    pairs.push_back({a, c, before});
  };
  const std::vector<std::vector<bool>> reach = in.reach();
  // Pairs whose windows (Bounds, in seconds) cannot overlap keep their order in every schedule
  // with T <= M and need no disjunction; nor do two items that take no time anywhere.
  const double horizon = upper_bound_s;
  auto apart = [](double s1, double e1, double s2, double e2) { return e1 <= s2 || e2 <= s1; };
  auto task_window = [&](int i) { return std::make_pair(bd.est[i], horizon - bd.tail[i]); };
  auto flow_window = [&](const Flow& f) {
    return std::make_pair(bd.est[f.src] + bd.fastest[f.src], horizon - bd.tail[f.dst] - bd.fastest[f.dst]);
  };
  auto longest = [&](const std::vector<double>& v) {
    double x = 0;
    for (double d : v)
      if (d != models::kCannotRun) x = std::max(x, d);
    return x;
  };
  std::vector<double> flow_longest;
  for (const Flow& f : in.flows) {
    double x = 0;
    for (const auto& row : f.time) x = std::max(x, longest(row));
    flow_longest.push_back(x);
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!in.is_free(i) || !in.is_free(j) || reach[i][j]) continue;
      const auto [si, ei] = task_window(i);
      const auto [sj, ej] = task_window(j);
      if (apart(si, ei, sj, ej) || (longest(in.dur[i]) == 0 && longest(in.dur[j]) == 0)) continue;
      std::vector<std::pair<VarId, VarId>> shared;
      for (int k = 0; k < K; ++k)
        if (has(b.x[i][k]) && has(b.x[j][k])) shared.push_back({b.x[i][k], b.x[j][k]});
      disjunction("t", i, j, b.S[i], b.C[i], b.S[j], b.C[j], shared, b.task_pairs);
    }
  auto precedes = [&](const Flow& f, const Flow& g) { return f.dst == g.src || (f.dst < g.src && reach[f.dst][g.src]); };
  for (int q = 0; q < F; ++q)
    for (int r = q + 1; r < F; ++r) {
      const Flow &fq = in.flows[q], &fr = in.flows[r];
      if (fq.src == fr.src || precedes(fq, fr) || precedes(fr, fq)) continue;
      const auto [sq, eq] = flow_window(fq);
      const auto [sr, er] = flow_window(fr);
      if (apart(sq, eq, sr, er) || (flow_longest[q] == 0 && flow_longest[r] == 0)) continue;
      std::vector<std::pair<VarId, VarId>> shared;
      for (int a = 0; a < K; ++a)
        for (int c = 0; c < K; ++c)
          if (has(u[q][a][c]) && has(u[r][a][c])) shared.push_back({u[q][a][c], u[r][a][c]});
      disjunction("f", q, r, b.fS[q], b.fC[q], b.fS[r], b.fC[r], shared, b.flow_pairs);
    }
  return b;
}

std::vector<int> canonical(const Built& b, const Instance& in, std::vector<int> slot_of) {
  for (const std::vector<int>& cls : b.classes) {
    // Class members in order of first use; unused ones after, in slot order.
    std::vector<int> used;
    for (int i = 0; i < in.tasks(); ++i)
      if (std::find(cls.begin(), cls.end(), slot_of[i]) != cls.end() &&
          std::find(used.begin(), used.end(), slot_of[i]) == used.end())
        used.push_back(slot_of[i]);
    for (int s : cls)
      if (std::find(used.begin(), used.end(), s) == used.end()) used.push_back(s);
    for (int& s : slot_of) {
      const auto it = std::find(used.begin(), used.end(), s);
      if (it != used.end()) s = cls[static_cast<size_t>(it - used.begin())];
    }
  }
  return slot_of;
}

std::vector<std::pair<VarId, double>> warm_start(const Built& b, const Instance& in, const std::vector<int>& slot_of,
                                                 const Timed& t) {
  std::vector<std::pair<VarId, double>> w;
  for (int i = 0; i < in.tasks(); ++i)
    for (int k = 0; k < in.slots; ++k)
      if (has(b.x[i][k])) w.push_back({b.x[i][k], slot_of[i] == k ? 1.0 : 0.0});
  // Sequenced items never overlap, so (start, finish) orders them as the schedule does.
  for (const Built::Pair& p : b.task_pairs)
    w.push_back({p.before, std::make_pair(t.start[p.a], t.finish[p.a]) <= std::make_pair(t.start[p.b], t.finish[p.b])});
  for (const Built::Pair& p : b.flow_pairs)
    w.push_back({p.before, std::make_pair(t.flow_start[p.a], t.flow_finish[p.a]) <=
                               std::make_pair(t.flow_start[p.b], t.flow_finish[p.b])});
  return w;
}

Solution read_solution(const Built& b, const Instance& in, const milp::Result& r) {
  Solution s;
  s.slot_of.assign(in.tasks(), -1);
  s.task_key.assign(in.tasks(), 0.0);
  for (int i = 0; i < in.tasks(); ++i) {
    for (int k = 0; k < in.slots; ++k)
      if (has(b.x[i][k]) && r.value(b.x[i][k]) > 0.5) s.slot_of[i] = k;
    s.task_key[i] = r.value(b.S[i]) * b.unit;
  }
  for (VarId v : b.fS) s.flow_key.push_back(r.value(v) * b.unit);
  return s;
}

}  // namespace placesim::scheduler::moirai
