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

// The model's rows by family, each as the paper numbers it (Eq. 4-8), added in the order the
// model has always had them (a test keeps the model text: tests/scheduler/placers/moirai/models/).
class ModelBuilder {
 public:
  ModelBuilder(const Instance& in, double upper_bound_s, Built& b)
      : in_(in), b_(b), m_(b.model), n_(in.tasks()), K_(in.slots), F_(static_cast<int>(in.flows.size())),
        upper_bound_s_(upper_bound_s) {
    b_.unit = upper_bound_s / kScale;
  }

  // (4c) assignment and (5) memory: all that memory_only asks.
  void placement() {
    assignment();
    memory();
  }

  void schedule() {
    symmetry_classes();
    bd_ = bounds(in_);
    tasks();
    makespan();
    symmetry();
    u_.assign(F_, std::vector<std::vector<VarId>>(K_, std::vector<VarId>(K_)));
    b_.fS.resize(F_);
    b_.fC.resize(F_);
    for (int q = 0; q < F_; ++q) flow(q);
    task_pairs();
    flow_pairs();
  }

 private:
  double t(double seconds) const { return seconds / b_.unit; }

  // (4c) assignment.
  void assignment() {
    b_.x.assign(n_, std::vector<VarId>(K_));
    for (int i = 0; i < n_; ++i) {
      std::vector<Term> one;
      for (int k = 0; k < K_; ++k) {
        if (in_.is_free(i) ? in_.dur[i][k] == models::kCannotRun : k != in_.fixed_slot[i]) continue;
        b_.x[i][k] = in_.is_free(i) ? m_.add_binary(fmt::format("x_{}_{}", i, k))
                                    : m_.add_integer(fmt::format("x_{}_{}", i, k), 1, 1);
        one.push_back({b_.x[i][k], 1});
      }
      m_.add_eq(fmt::format("c4c_{}", i), one, 1);
    }
  }

  // (5) memory: own bytes per task, each parameter once per slot that holds a reader.
  void memory() {
    for (int k = 0; k < K_; ++k) {
      if (in_.capacity[k] == kInf) continue;
      const double scale = 1 / std::max(in_.capacity[k], 1.0);
      std::vector<Term> row;
      for (int i = 0; i < n_; ++i)
        if (in_.is_free(i) && has(b_.x[i][k])) row.push_back({b_.x[i][k], in_.own_bytes[i] * scale});
      for (size_t w = 0; w < in_.params.size(); ++w) {
        const ParamUse& pu = in_.params[w];
        if (pu.resident[k] || pu.bytes <= 0) continue;
        const VarId y = m_.add_continuous(fmt::format("y_{}_{}", w, k), 0, 1);
        for (int i : pu.readers)
          if (has(b_.x[i][k])) m_.add_ge(fmt::format("c5y_{}_{}_{}", w, k, i), {{y, 1}, {b_.x[i][k], -1}}, 0);
        row.push_back({y, pu.bytes * scale});
      }
      m_.add_le(fmt::format("c5_{}", k), row, in_.capacity[k] * scale);
    }
  }

  // Symmetry classes (only where no earlier window pinned anything).
  void symmetry_classes() {
    std::vector<bool> classed(K_, false);
    for (int a = 0; a < K_; ++a) {
      if (classed[a]) continue;
      std::vector<int> cls{a};
      for (int c = a + 1; c < K_; ++c)
        if (!classed[c] && std::all_of(cls.begin(), cls.end(), [&](int s) { return identical(in_, s, c); }))
          cls.push_back(c), classed[c] = true;
      if (cls.size() > 1) b_.classes.push_back(cls);
    }
  }

  // Each task's start and end within its bounds, (4b) its end after its time on its slot, and
  // its start after the devices' earlier windows.
  void tasks() {
    for (int k = 0; k < K_; ++k) avail_ += in_.device_avail[k];
    b_.S.resize(n_);
    b_.C.resize(n_);
    for (int i = 0; i < n_; ++i) {
      double fastest = kInf;
      for (int k = 0; k < K_; ++k)
        if (has(b_.x[i][k])) fastest = std::min(fastest, in_.dur[i][k]);
      if (in_.is_free(i)) {
        lower_ = std::max(lower_, bd_.est[i] + fastest);
        work_ += fastest;
      }
      const double s_lo = std::min(t(bd_.est[i]), kScale);
      const double s_hi = std::clamp(t(upper_bound_s_ - bd_.tail[i] - fastest), s_lo, kScale);
      b_.S[i] = m_.add_continuous(fmt::format("S_{}", i), s_lo, in_.is_free(i) ? s_hi : s_lo);
      b_.C[i] = m_.add_continuous(fmt::format("C_{}", i), 0, kScale);
      std::vector<Term> row{{b_.C[i], 1}, {b_.S[i], -1}};  // (4b)
      for (int k = 0; k < K_; ++k)
        if (has(b_.x[i][k])) row.push_back({b_.x[i][k], -t(in_.dur[i][k])});
      m_.add_eq(fmt::format("c4b_{}", i), row, 0);
      if (in_.is_free(i) && avail_ > 0) {  // devices busy until earlier windows' work ends
        std::vector<Term> ready{{b_.S[i], 1}};
        for (int k = 0; k < K_; ++k)
          if (has(b_.x[i][k]) && in_.device_avail[k] > 0) ready.push_back({b_.x[i][k], -t(in_.device_avail[k])});
        m_.add_ge(fmt::format("avail_{}", i), ready, 0);
      }
    }
  }

  // T is the schedule's end so far: after every task (4) and every device's load, and also every
  // device's available time, so the load rows hold for a device the window leaves idle.
  void makespan() {
    lower_ = std::max(lower_, (work_ + avail_) / K_);
    for (int k = 0; k < K_; ++k) lower_ = std::max(lower_, in_.device_avail[k]);
    b_.T = m_.add_continuous("T", std::min(t(lower_), kScale), kScale, 1);
    for (int i = 0; i < n_; ++i)
      if (in_.is_free(i)) m_.add_ge(fmt::format("c4_{}", i), {{b_.T, 1}, {b_.C[i], -1}}, 0);
    for (int k = 0; k < K_; ++k) {
      std::vector<Term> load{{b_.T, 1}};
      for (int i = 0; i < n_; ++i)
        if (in_.is_free(i) && has(b_.x[i][k])) load.push_back({b_.x[i][k], -t(in_.dur[i][k])});
      m_.add_ge(fmt::format("load_{}", k), load, t(in_.device_avail[k]));
    }
  }

  // A task uses a later slot of a class only if one of the earlier tasks uses the slot before it.
  void symmetry() {
    for (const std::vector<int>& cls : b_.classes)
      for (size_t s = 1; s < cls.size(); ++s) {
        std::vector<Term> earlier;
        for (int i = 0; i < n_; ++i) {
          if (!has(b_.x[i][cls[s]])) continue;  // identical slots: then neither exists
          std::vector<Term> row{{b_.x[i][cls[s]], 1}};
          for (const Term& e : earlier) row.push_back({e.var, -1});
          m_.add_le(fmt::format("sym_{}_{}", i, cls[s]), row, 0);
          earlier.push_back({b_.x[i][cls[s - 1]], 1});
        }
      }
  }

  // Flow q: (4a) after its producer, before its consumer; (7) on the channel between their slots.
  void flow(int q) {
    const Flow& f = in_.flows[q];
    const int i = f.src, j = f.dst;
    b_.fS[q] = m_.add_continuous(fmt::format("Sf_{}", q), 0, kScale);
    b_.fC[q] = m_.add_continuous(fmt::format("Cf_{}", q), 0, kScale);
    m_.add_ge(fmt::format("c4a_{}_in", q), {{b_.fS[q], 1}, {b_.C[i], -1}}, 0);
    m_.add_ge(fmt::format("c4a_{}_out", q), {{b_.S[j], 1}, {b_.fC[q], -1}}, 0);
    const VarId z = m_.add_continuous(fmt::format("z_{}", q), 0, 1);
    for (int k = 0; k < K_; ++k) {
      const VarId xi = b_.x[i][k], xj = b_.x[j][k];
      if (has(xi) && has(xj)) m_.add_le(fmt::format("c7a_{}_{}", q, k), {{z, 1}, {xi, 1}, {xj, 1}}, 2);
      if (has(xi)) m_.add_ge(fmt::format("c7b_{}_{}", q, k), live({{z, 1}, {xi, -1}, {xj, 1}}), 0);
      if (has(xj)) m_.add_ge(fmt::format("c7c_{}_{}", q, k), live({{z, 1}, {xj, -1}, {xi, 1}}), 0);
    }
    std::vector<Term> pick{{z, -1}}, duration{{b_.fC[q], 1}, {b_.fS[q], -1}}, channel_ready{{b_.fS[q], 1}};
    for (int a = 0; a < K_; ++a)
      for (int c = 0; c < K_; ++c) {
        if (a == c || !has(b_.x[i][a]) || !has(b_.x[j][c])) continue;
        if (f.time[a][c] == kInf) {  // no route: never both
          m_.add_le(fmt::format("noroute_{}_{}_{}", q, a, c), {{b_.x[i][a], 1}, {b_.x[j][c], 1}}, 1);
          continue;
        }
        const VarId v = u_[q][a][c] = m_.add_continuous(fmt::format("u_{}_{}_{}", q, a, c), 0, 1);
        m_.add_ge(fmt::format("c7u_{}_{}_{}", q, a, c), {{v, 1}, {b_.x[i][a], -1}, {b_.x[j][c], -1}}, -1);
        pick.push_back({v, 1});
        duration.push_back({v, -t(f.time[a][c])});
        if (in_.channel_avail[a][c] > 0) channel_ready.push_back({v, -t(in_.channel_avail[a][c])});
      }
    m_.add_eq(fmt::format("c7z_{}", q), pick, 0);
    m_.add_eq(fmt::format("c7p_{}", q), duration, 0);
    if (channel_ready.size() > 1) m_.add_ge(fmt::format("chavail_{}", q), channel_ready, 0);
  }

  // (6) and (8): one indicator of sharing and one of order per unordered pair.
  void disjunction(const std::string& tag, int a, int c, VarId Sa, VarId Ca, VarId Sc, VarId Cc,
                   const std::vector<std::pair<VarId, VarId>>& shared, std::vector<Built::Pair>& pairs) {
    if (shared.empty()) return;
    const double M = kScale;
    const VarId same = m_.add_continuous(fmt::format("{}same_{}_{}", tag, a, c), 0, 1);
    for (size_t s = 0; s < shared.size(); ++s)
      m_.add_ge(fmt::format("{}share_{}_{}_{}", tag, a, c, s), {{same, 1}, {shared[s].first, -1}, {shared[s].second, -1}},
                -1);
    const VarId before = m_.add_binary(fmt::format("{}d_{}_{}", tag, a, c));
    // before = 1: c starts after a ends; before = 0: a after c.
    m_.add_ge(fmt::format("{}ab_{}_{}", tag, a, c), {{Sc, 1}, {Ca, -1}, {before, -M}, {same, -M}}, -2 * M);
    m_.add_ge(fmt::format("{}ba_{}_{}", tag, a, c), {{Sa, 1}, {Cc, -1}, {before, M}, {same, -M}}, -M);
    pairs.push_back({a, c, before});
  }

  // Pairs whose windows (Bounds, in seconds) cannot overlap keep their order in every schedule
  // with T <= M and need no disjunction; nor do two items that take no time anywhere.
  static bool apart(std::pair<double, double> x, std::pair<double, double> y) {
    return x.second <= y.first || y.second <= x.first;
  }
  static double longest(const std::vector<double>& v) {
    double x = 0;
    for (double d : v)
      if (d != models::kCannotRun) x = std::max(x, d);
    return x;
  }

  // Tasks that may share a slot and may overlap in time: (6).
  void task_pairs() {
    const auto window = [&](int i) { return std::make_pair(bd_.est[i], upper_bound_s_ - bd_.tail[i]); };
    reach_ = in_.reach();
    for (int i = 0; i < n_; ++i)
      for (int j = i + 1; j < n_; ++j) {
        if (!in_.is_free(i) || !in_.is_free(j) || reach_[i][j]) continue;
        if (apart(window(i), window(j)) || (longest(in_.dur[i]) == 0 && longest(in_.dur[j]) == 0)) continue;
        std::vector<std::pair<VarId, VarId>> shared;
        for (int k = 0; k < K_; ++k)
          if (has(b_.x[i][k]) && has(b_.x[j][k])) shared.push_back({b_.x[i][k], b_.x[j][k]});
        disjunction("t", i, j, b_.S[i], b_.C[i], b_.S[j], b_.C[j], shared, b_.task_pairs);
      }
  }

  // Flows that may share a channel and may overlap in time: (8).
  void flow_pairs() {
    const auto window = [&](const Flow& f) {
      return std::make_pair(bd_.est[f.src] + bd_.fastest[f.src], upper_bound_s_ - bd_.tail[f.dst] - bd_.fastest[f.dst]);
    };
    std::vector<double> flow_longest;
    for (const Flow& f : in_.flows) {
      double x = 0;
      for (const auto& row : f.time) x = std::max(x, longest(row));
      flow_longest.push_back(x);
    }
    const auto precedes = [&](const Flow& f, const Flow& g) {
      return f.dst == g.src || (f.dst < g.src && reach_[f.dst][g.src]);
    };
    for (int q = 0; q < F_; ++q)
      for (int r = q + 1; r < F_; ++r) {
        const Flow &fq = in_.flows[q], &fr = in_.flows[r];
        if (fq.src == fr.src || precedes(fq, fr) || precedes(fr, fq)) continue;
        if (apart(window(fq), window(fr)) || (flow_longest[q] == 0 && flow_longest[r] == 0)) continue;
        std::vector<std::pair<VarId, VarId>> shared;
        for (int a = 0; a < K_; ++a)
          for (int c = 0; c < K_; ++c)
            if (has(u_[q][a][c]) && has(u_[r][a][c])) shared.push_back({u_[q][a][c], u_[r][a][c]});
        disjunction("f", q, r, b_.fS[q], b_.fC[q], b_.fS[r], b_.fC[r], shared, b_.flow_pairs);
      }
  }

  const Instance& in_;
  Built& b_;
  milp::Model& m_;
  const int n_, K_, F_;
  const double upper_bound_s_;
  Bounds bd_;
  double lower_ = 0, work_ = 0, avail_ = 0;  // the makespan's lower bound, from tasks()
  std::vector<std::vector<std::vector<VarId>>> u_;  // [flow][slot a][slot c]: the flow on channel a -> c
  std::vector<std::vector<bool>> reach_;
};

}  // namespace

Built build_model(const Instance& in, double upper_bound_s, bool memory_only) {
  Built b;
  ModelBuilder builder(in, upper_bound_s, b);
  builder.placement();
  if (!memory_only) builder.schedule();
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
