// Eq. 1-23 of sortinghat.md 3.3 as rows of a milp::Model; the header lists the indices and the
// changes from the paper. Times are scaled so that the big-M is 1000 (ShModel::scale): CBC's
// absolute tolerances (1e-6..1e-9) then stay far below any time that matters, whether the
// submodel takes microseconds or minutes.
#include "scheduler/placers/sortinghat/sortinghat_model.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::scheduler::sortinghat {

using milp::Term;
using milp::VarId;

std::vector<std::vector<int>> ShInput::dt_order() const {
  std::vector<std::vector<int>> order(static_cast<size_t>(buses));
  for (int r = 0; r < q; ++r)
    for (int i = 0; i < k; ++i) order[static_cast<size_t>(bus_of[i])].push_back(i * q + 1 + r);
  return order;
}

double ShInput::big_m() const {
  std::vector<int> outdeg(static_cast<size_t>(n), 0);
  for (auto [u, v] : edges) ++outdeg[u];
  double h = 0;
  for (double t : prev_dt_fin) h = std::max(h, t);
  double sg = 0;
  for (double t : prev_sg_fin) sg = std::max(sg, t);
  h += sg;
  for (int v = 0; v < n; ++v) {
    double most = 0;
    for (int i = 0; i < k; ++i) {
      if (is_param[v]) most = std::max(most, dt_s[v][i]);
      else
        for (double t : {p_gpu[v][i], dha ? p_dha[v][i] : 0.0})
          if (std::isfinite(t)) most = std::max(most, t);
    }
    double copy = 0;
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) copy = std::max(copy, copy_s[v][a][b]);
    h += most + copy * std::min(k * q, outdeg[v]);
  }
  return std::max(h, 1e-9) * 1.01;  // > every time; the margin keeps rows strictly slack
}

namespace {

// Fastest time of op v on any GPU in any slot kind (0 for a parameter).
double fastest(const ShInput& in, int v) {
  if (in.is_param[v]) return 0;
  double best = milp::kInf;
  for (int i = 0; i < in.k; ++i) {
    best = std::min(best, in.p_gpu[v][i]);
    if (in.dha) best = std::min(best, in.p_dha[v][i]);
  }
  return std::isfinite(best) ? best : 0.0;
}

// Lower bound on TotalLatency (the `floor` row). For op v in slot j, let L(v) = SGStart_j plus
// the times of v and of its ancestors in slot j. Then TotalLatency >= SGFin_j >= L(v) (Eq. 21-23,
// 17-18), and L(v) >= fin(v) computed along the graph:
//   * SGStart_j >= PrevSGFin of j's GPU (Eq. 17-18): of the fixed node's GPU for a fixed node,
//     at least the smallest PrevSGFin for any other;
//   * a predecessor u in slot j has L(v) >= L(u) + p(v); in an earlier slot, SGStart_j >=
//     NodeFin_u >= SGFin of u's slot >= L(u) (Eq. 15, 19); either way L(v) >= fin(u) + p(v);
//   * with release (ShStrength::release_floor): an op that reads parameters runs either in a
//     DHA slot (its time P^DHA) or in a slot without DHA with every parameter w it reads copied
//     (Eq. 5), so SGStart_j >= DTFin of w's slot (Eq. 16, 19, 20) >= PrevDTFin of that bus + the
//     copy time of w to that GPU (Eq. 12-14): at least rel(w), the least of these over GPUs.
// fin(v) = the smaller over v's possible modes of max(start, preds' fin, rel) + v's fastest time
// in that mode. Without release, one mode: v's fastest time in any slot.
double latency_floor(const ShInput& in, bool release) {
  std::vector<std::vector<int>> preds(static_cast<size_t>(in.n)), params(static_cast<size_t>(in.n));
  std::vector<std::vector<int>> succ(static_cast<size_t>(in.n));
  std::vector<int> indeg(static_cast<size_t>(in.n), 0);
  for (auto [u, v] : in.edges) {
    succ[u].push_back(v), ++indeg[v];
    (in.is_param[u] ? params[v] : preds[v]).push_back(u);
  }
  std::vector<int> order;
  for (int v = 0; v < in.n; ++v)
    if (indeg[v] == 0) order.push_back(v);
  for (size_t r = 0; r < order.size(); ++r)
    for (int w : succ[order[r]])
      if (--indeg[w] == 0) order.push_back(w);
  std::vector<double> start(static_cast<size_t>(in.n), *std::min_element(in.prev_sg_fin.begin(), in.prev_sg_fin.end()));
  for (auto [v, i] : in.fixed) start[v] = in.prev_sg_fin[i];
  auto least = [&](const std::vector<std::vector<double>>& t, int v) {
    double best = milp::kInf;
    for (int i = 0; i < in.k; ++i) best = std::min(best, t[v][i]);
    return best;
  };
  auto rel = [&](int w) {
    double best = milp::kInf;
    for (int i = 0; i < in.k; ++i) best = std::min(best, in.prev_dt_fin[in.bus_of[i]] + in.dt_s[w][i]);
    return best;
  };
  std::vector<double> fin(static_cast<size_t>(in.n), 0);
  double floor = 0;
  for (int v : order) {
    if (in.is_param[v]) continue;
    double ready = start[v];
    for (int u : preds[v]) ready = std::max(ready, fin[u]);
    double f = milp::kInf;
    if (release && !params[v].empty()) {
      double copied = ready;
      for (int w : params[v]) copied = std::max(copied, rel(w));
      f = copied + least(in.p_gpu, v);
      if (in.dha) f = std::min(f, ready + least(in.p_dha, v));
    } else {
      f = ready + fastest(in, v);
    }
    fin[v] = std::isfinite(f) ? f : ready;  // an op that cannot run: the model is infeasible anyway
    floor = std::max(floor, fin[v]);
  }
  return floor;
}

// GPUs interchangeable with GPU a in every constant (and alone on their buses, so the round
// robin does not tell them apart): classes of such GPUs, in index order.
bool interchangeable(const ShInput& in, int a, int b) {
  auto alone = [&](int i) { return std::count(in.bus_of.begin(), in.bus_of.end(), in.bus_of[i]) == 1; };
  if (!alone(a) || !alone(b) || in.capacity[a] != in.capacity[b] || in.prev_m[a] != in.prev_m[b] ||
      in.prev_sg_fin[a] != in.prev_sg_fin[b] || in.prev_dt_fin[in.bus_of[a]] != in.prev_dt_fin[in.bus_of[b]])
    return false;
  if (!in.used_before.empty() && in.used_before[a] != in.used_before[b]) return false;
  for (auto [v, i] : in.fixed)
    if (i == a || i == b) return false;
  for (int v = 0; v < in.n; ++v) {
    if (in.p_gpu[v][a] != in.p_gpu[v][b] || in.p_dha[v][a] != in.p_dha[v][b] || in.dt_s[v][a] != in.dt_s[v][b]) return false;
    const auto& c = in.copy_s[v];
    if (c[a][b] != c[b][a]) return false;
    for (int x = 0; x < in.k; ++x)
      if (x != a && x != b && (c[a][x] != c[b][x] || c[x][a] != c[x][b])) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<int>> gpu_classes(const ShInput& in) {
  std::vector<std::vector<int>> out;
  std::vector<bool> classed(static_cast<size_t>(in.k), false);
  for (int a = 0; a < in.k; ++a) {
    if (classed[a]) continue;
    std::vector<int> cls{a};
    for (int b = a + 1; b < in.k; ++b)
      if (!classed[b] && interchangeable(in, a, b)) cls.push_back(b), classed[b] = true;
    out.push_back(cls);
  }
  return out;
}

std::vector<int> canonical(const ShInput& in, std::vector<int> slot_of) {
  for (const std::vector<int>& cls : gpu_classes(in)) {
    auto first = [&](int i) {
      for (int v = 0; v < in.n; ++v)
        if (slot_of[v] > 0 && in.gpu_of_slot(slot_of[v]) == i) return v;
      return in.n;
    };
    std::vector<int> by = cls;
    std::stable_sort(by.begin(), by.end(), [&](int a, int b) { return first(a) < first(b); });
    std::vector<int> to(static_cast<size_t>(in.k));
    for (int i = 0; i < in.k; ++i) to[i] = i;
    for (size_t r = 0; r < cls.size(); ++r) to[by[r]] = cls[r];
    for (int& j : slot_of)
      if (j > 0 && to[in.gpu_of_slot(j)] != in.gpu_of_slot(j)) j = to[in.gpu_of_slot(j)] * in.q + (j - 1) % in.q + 1;
  }
  // Empty blocks last (the "packed" rows): shift later slots down over an empty block.
  const int b = in.dha ? 2 : 1;
  for (int i = 0; i < in.k; ++i) {
    if (std::count(in.bus_of.begin(), in.bus_of.end(), in.bus_of[i]) != 1) continue;
    for (int r = 1; r + 2 * b - 1 <= in.q; ++r) {
      auto empty = [&](int from, int to) {
        for (int j : slot_of)
          if (j > 0 && in.gpu_of_slot(j) == i && (j - 1) % in.q + 1 >= from && (j - 1) % in.q + 1 <= to) return false;
        return true;
      };
      while (empty(r, r + b - 1) && !empty(r + b, in.q))
        for (int& j : slot_of)
          if (j > 0 && in.gpu_of_slot(j) == i && (j - 1) % in.q + 1 >= r + b) j -= b;
    }
  }
  return slot_of;
}

namespace {

// The model's rows by family, each as the header and the paper number them, added in the order
// the model has always had them (a test keeps the model text: tests/scheduler/placers/sortinghat/models/).
class ModelBuilder {
 public:
  ModelBuilder(const ShInput& in, const ShStrength& strength, ShModel& out)
      : in_(in), strength_(strength), out_(out), m_(out.model), V_(out.vars), S_(in.slots()) {
    out_.scale = 1000.0 / in.big_m();
    sc_ = out_.scale;
    outs_.resize(static_cast<size_t>(in.n));
    for (size_t e = 0; e < in.edges.size(); ++e) outs_[in.edges[e].first].push_back(static_cast<int>(e));
  }

  void build() {
    assignment();
    contiguity();
    copies_in();
    memory();
    times();
    parameter_copies();
    for (int j = 1; j < S_; ++j) slot(j);
    gpu_cap();
    cuts();
    branching();
    packed();
    order();
  }

 private:
  // Eq. 2-4: x_{v,j}; slot 0 exists for parameters only (Eq. 4), and only with DHA. (5): a
  // parameter stays in DRAM exactly when its reader runs in a DHA slot.
  void assignment() {
    V_.x.assign(in_.n, std::vector<VarId>(S_));
    for (int v = 0; v < in_.n; ++v) {
      std::vector<Term> one;
      for (int j = 0; j < S_; ++j) {
        if (j == 0 && !(in_.dha && in_.is_param[v])) continue;
        V_.x[v][j] = m_.add_binary(fmt::format("x_{}_{}", v, j));
        one.push_back({V_.x[v][j], 1});
        // An op that cannot run on the slot's GPU (or with the slot's DHA mode) stays out of it.
        if (j > 0 && !in_.is_param[v] && !std::isfinite(op_time(v, j))) m_.set_bounds(V_.x[v][j], 0, 0);
      }
      m_.add_eq(fmt::format("assign_{}", v), one, 1);  // (2)
    }
    for (auto [v, i] : in_.fixed) m_.add_eq(fmt::format("fixed_{}_{}", v, i), {{V_.x[v][i * in_.q + 1], 1}}, 1);  // (3)
    if (!in_.dha) return;
    for (size_t e = 0; e < in_.edges.size(); ++e) {  // (5)
      auto [w, v] = in_.edges[e];
      if (!in_.is_param[w] || in_.is_param[v]) continue;
      std::vector<Term> t{{V_.x[w][0], 1}};
      for (int j = 1; j < S_; ++j)
        if (in_.slot_dha(j)) t.push_back({V_.x[v][j], -1});
      m_.add_eq(fmt::format("dha_{}", e), t, 0);
    }
  }

  // (6-8) contiguity, z continuous (header).
  void contiguity() {
    for (int j = 1; j < S_; ++j) {
      std::vector<VarId> z(static_cast<size_t>(in_.n));
      for (int v = 0; v < in_.n; ++v) {
        z[v] = m_.add_continuous(fmt::format("z_{}_{}", v, j), 0, 1);
        m_.add_ge(fmt::format("reach_{}_{}", v, j), {{z[v], 1}, {V_.x[v][j], -1}}, 0);  // (6)
      }
      for (size_t e = 0; e < in_.edges.size(); ++e) {
        auto [u, v] = in_.edges[e];
        m_.add_ge(fmt::format("reachup_{}_{}", e, j), {{z[u], 1}, {z[v], -1}}, 0);                        // (7)
        m_.add_le(fmt::format("convex_{}_{}", e, j), {{z[v], 1}, {V_.x[v][j], -1}, {V_.x[u][j], 1}}, 1);  // (8)
      }
    }
  }

  // (9) EdgeIn, (10) CopyIn: continuous (header); CopyIn only from other GPUs (T_{i,i} = 0, and
  // Eq. 11 counts copies from other GPUs only).
  void copies_in() {
    ein_.assign(in_.n, std::vector<VarId>(S_));
    cin_.assign(in_.n, std::vector<std::vector<VarId>>(S_, std::vector<VarId>(in_.k)));
    for (int u = 0; u < in_.n; ++u) {
      if (outs_[u].empty()) continue;
      for (int j = 1; j < S_; ++j) {
        ein_[u][j] = m_.add_continuous(fmt::format("ein_{}_{}", u, j), 0, 1);
        for (int e : outs_[u])
          m_.add_ge(fmt::format("edgein_{}_{}", e, j),
                    {{ein_[u][j], 1}, {V_.x[in_.edges[e].second][j], -1}, {V_.x[u][j], 1}}, 0);  // (9)
        for (int i = 0; i < in_.k; ++i) {
          if (i == in_.gpu_of_slot(j)) continue;
          cin_[u][j][i] = m_.add_continuous(fmt::format("cin_{}_{}_{}", u, i, j), 0, 1);
          std::vector<Term> t{{cin_[u][j][i], 1}, {ein_[u][j], -1}};
          for (int r = 1; r <= in_.q; ++r) t.push_back({V_.x[u][i * in_.q + r], -1});
          m_.add_ge(fmt::format("copyin_{}_{}_{}", u, i, j), t, -1);  // (10)
        }
      }
    }
  }

  // (11) memory.
  void memory() {
    for (int i = 0; i < in_.k; ++i) {
      if (in_.capacity[i] <= 0) continue;
      std::vector<Term> t;
      for (int v = 0; v < in_.n; ++v) {
        if (in_.mem[v] <= 0) continue;
        for (int r = 1; r <= in_.q; ++r) {
          const int j = i * in_.q + r;
          t.push_back({V_.x[v][j], in_.mem[v]});
          if (!outs_[v].empty())
            for (int i2 = 0; i2 < in_.k; ++i2)
              if (i2 != i) t.push_back({cin_[v][j][i2], in_.mem[v]});
        }
      }
      m_.add_le(fmt::format("memory_{}", i), t, in_.capacity[i] - in_.prev_m[i]);
    }
  }

  // The times: each slot's start and end of its ops and of its copies, each node's end, and the
  // objective (1).
  void times() {
    for (auto* v : {&V_.sg_start, &V_.sg_fin, &V_.dt_start, &V_.dt_fin}) v->resize(S_);
    for (int j = 1; j < S_; ++j) {
      V_.sg_start[j] = m_.add_continuous(fmt::format("sgs_{}", j), 0, milp::kInf);
      V_.sg_fin[j] = m_.add_continuous(fmt::format("sgf_{}", j), 0, milp::kInf);
      V_.dt_start[j] = m_.add_continuous(fmt::format("dts_{}", j), 0, milp::kInf);
      V_.dt_fin[j] = m_.add_continuous(fmt::format("dtf_{}", j), 0, milp::kInf);
    }
    V_.node_fin.resize(in_.n);
    for (int v = 0; v < in_.n; ++v) V_.node_fin[v] = m_.add_continuous(fmt::format("nf_{}", v), 0, milp::kInf);
    V_.total = m_.add_continuous("total", 0, milp::kInf, 1.0);  // (1)
  }

  // (12-14) parameter copies, round robin per bus.
  void parameter_copies() {
    const auto order = in_.dt_order();
    for (int b = 0; b < in_.buses; ++b)
      for (size_t r = 0; r < order[b].size(); ++r) {
        const int j = order[b][r];
        if (r == 0) m_.add_eq(fmt::format("dtfirst_{}", j), {{V_.dt_start[j], 1}}, in_.prev_dt_fin[b] * sc_);  // (12)
        else m_.add_eq(fmt::format("dtnext_{}", j), {{V_.dt_start[j], 1}, {V_.dt_fin[order[b][r - 1]], -1}}, 0);  // (13)
      }
    for (int j = 1; j < S_; ++j) {
      std::vector<Term> t{{V_.dt_fin[j], 1}, {V_.dt_start[j], -1}};
      for (int w = 0; w < in_.n; ++w)
        if (in_.is_param[w]) t.push_back({V_.x[w][j], -in_.dt_s[w][in_.gpu_of_slot(j)] * sc_});
      m_.add_eq(fmt::format("dtfin_{}", j), t, 0);  // (14)
    }
  }

  // (15-23) slot j: its nodes' ends, its start after the slot before and after its inputs, its
  // end after its copies in and its ops, and the latency after the GPU's last slot.
  void slot(int j) {
    const int i = in_.gpu_of_slot(j);
    for (int v = 0; v < in_.n; ++v)  // (15, 16) NodeFin
      m_.add_ge(fmt::format("nodefin_{}_{}", v, j),
                {{V_.node_fin[v], 1}, {in_.is_param[v] ? V_.dt_fin[j] : V_.sg_fin[j], -1}, {V_.x[v][j], -kHs}}, -kHs);
    // (17, 18) slots of a GPU run in order, after the previous submodel's.
    if ((j - 1) % in_.q == 0) m_.add_ge(fmt::format("sgfirst_{}", j), {{V_.sg_start[j], 1}}, in_.prev_sg_fin[i] * sc_);
    else m_.add_ge(fmt::format("sgnext_{}", j), {{V_.sg_start[j], 1}, {V_.sg_fin[j - 1], -1}}, 0);
    // (19) inputs from other slots; (20) parameters in the slot itself.
    for (int v = 0; v < in_.n; ++v)
      if (!outs_[v].empty())
        m_.add_ge(fmt::format("ready_{}_{}", v, j), {{V_.sg_start[j], 1}, {V_.node_fin[v], -1}, {ein_[v][j], -kHs}}, -kHs);
    for (size_t e = 0; e < in_.edges.size(); ++e) {
      auto [w, v] = in_.edges[e];
      if (!in_.is_param[w]) continue;
      m_.add_ge(fmt::format("own_{}_{}", e, j),
                {{V_.sg_start[j], 1}, {V_.node_fin[w], -1}, {V_.x[w][j], -kHs}, {V_.x[v][j], -kHs}}, -2 * kHs);
    }
    // (21, 22) the slot's copies in from other GPUs, then its ops (with DHA on odd slots).
    std::vector<Term> t{{V_.sg_fin[j], 1}, {V_.sg_start[j], -1}};
    for (int v = 0; v < in_.n; ++v) {
      if (!outs_[v].empty())
        for (int i2 = 0; i2 < in_.k; ++i2)
          if (i2 != i && in_.copy_s[v][i2][i] > 0) t.push_back({cin_[v][j][i2], -in_.copy_s[v][i2][i] * sc_});
      const double p = op_time(v, j);
      if (!in_.is_param[v] && std::isfinite(p)) t.push_back({V_.x[v][j], -p * sc_});
    }
    m_.add_eq(fmt::format("sgfin_{}", j), t, 0);
    if (j % in_.q == 0) m_.add_ge(fmt::format("latency_{}", j), {{V_.total, 1}, {V_.sg_fin[j], -1}}, 0);  // (23)
  }

  // At most max_gpus GPUs (header of the .hpp): x_{v,j} <= used_i.
  void gpu_cap() {
    if (in_.max_gpus <= 0) return;
    std::vector<Term> count;
    int before = 0;
    for (int i = 0; i < in_.k; ++i) {
      const bool was = !in_.used_before.empty() && in_.used_before[i];
      before += was;
      out_.used.push_back(m_.add_binary(fmt::format("used_{}", i)));
      if (!was) count.push_back({out_.used[i], 1});
      for (int v = 0; v < in_.n; ++v)
        for (int r = 1; r <= in_.q; ++r)
          m_.add_le(fmt::format("uses_{}_{}", v, i * in_.q + r), {{V_.x[v][i * in_.q + r], 1}, {out_.used[i], -1}}, 0);
    }
    m_.add_le("gpus", count, std::max(0, in_.max_gpus - before));
  }

  // Cheap cuts that keep the optimum: the latency floor; the work bound (TotalLatency is at
  // least every GPU's last SGFin, which is at least its PrevSGFin plus the times of the nodes
  // in its slots, so at least their average over the GPUs); and symmetry among
  // interchangeable GPUs (relabel them by the smallest node each holds: node t then sits on
  // one of the first t + 1 of its class, so x = 0 on the class's later GPUs).
  void cuts() {
    m_.add_ge("floor", {{V_.total, 1}}, latency_floor(in_, strength_.release_floor) * sc_);
    double work = 0;
    for (int v = 0; v < in_.n; ++v) work += fastest(in_, v);
    for (double t : in_.prev_sg_fin) work += t;
    m_.add_ge("work", {{V_.total, 1}}, work / in_.k * sc_);
    for (const std::vector<int>& cls : gpu_classes(in_))
      for (size_t rank = 1; rank < cls.size(); ++rank)
        for (int v = 0; v < std::min<int>(in_.n, static_cast<int>(rank)); ++v)
          for (int r = 1; r <= in_.q; ++r) m_.set_bounds(V_.x[v][cls[rank] * in_.q + r], 0, 0);
  }

  // Branching: an op's slot decides its GPU, its DHA mode (so, by Eq. 5, whether its
  // parameters stay in DRAM) and where its inputs come from; a parameter's follows from its
  // readers'. CBC branches on lower priorities first.
  void branching() {
    if (!strength_.priorities) return;
    for (int v = 0; v < in_.n; ++v)
      for (int j = 0; j < S_; ++j)
        if (V_.x[v][j].index >= 0) m_.set_priority(V_.x[v][j], in_.is_param[v] ? in_.n + v : v);
  }

  // Empty slots last: on a GPU alone on its bus, a block of b empty slots (b = 2 with DHA,
  // keeping parity; 1 without) is followed by an empty block; shifting the later slots down
  // by b gives the same schedule (empty slots pass time through, and the GPU's copies keep
  // their order on its own bus).
  void packed() {
    const int b = in_.dha ? 2 : 1;
    for (int i = 0; i < in_.k; ++i) {
      if (std::count(in_.bus_of.begin(), in_.bus_of.end(), in_.bus_of[i]) != 1) continue;
      for (int r = 1; r + 2 * b - 1 <= in_.q; ++r) {
        std::vector<Term> t;
        for (int v = 0; v < in_.n; ++v)
          for (int d = 0; d < b; ++d) {
            t.push_back({V_.x[v][i * in_.q + r + b + d], 1});
            t.push_back({V_.x[v][i * in_.q + r + d], -static_cast<double>(in_.n)});
          }
        m_.add_le(fmt::format("packed_{}_{}", i, r), t, 0);
      }
    }
  }

  // Order within a GPU (header): op edge (u, v) both on GPU i -> pos(v) >= pos(u).
  void order() {
    for (size_t e = 0; e < in_.edges.size(); ++e) {
      auto [u, v] = in_.edges[e];
      if (in_.is_param[u]) continue;
      for (int i = 0; i < in_.k; ++i) {
        std::vector<Term> t;
        for (int r = 1; r <= in_.q; ++r) {
          const int j = i * in_.q + r;
          t.push_back({V_.x[v][j], static_cast<double>(r - in_.q)});
          t.push_back({V_.x[u][j], static_cast<double>(-r - in_.q)});
        }
        m_.add_ge(fmt::format("order_{}_{}", e, i), t, -2.0 * in_.q);
      }
    }
  }

  // Op v's time in slot j: with DHA in a DHA slot (infinite where it cannot run there).
  double op_time(int v, int j) const {
    return in_.slot_dha(j) ? in_.p_dha[v][in_.gpu_of_slot(j)] : in_.p_gpu[v][in_.gpu_of_slot(j)];
  }

  static constexpr double kHs = 1000.0;  // the big-M in model units (ShModel::scale)
  const ShInput& in_;
  const ShStrength& strength_;
  ShModel& out_;
  milp::Model& m_;
  ShVars& V_;
  const int S_;
  double sc_ = 1;
  std::vector<std::vector<int>> outs_;             // [v]: the edges out of v
  std::vector<std::vector<VarId>> ein_;            // [v][j]
  std::vector<std::vector<std::vector<VarId>>> cin_;  // [v][j][i]
};

}  // namespace

ShModel build_model(const ShInput& in, const ShStrength& strength) {
  PLACESIM_ASSERT(in.q >= 1 && in.k >= 1 && (!in.dha || in.q % 2 == 0), "sortinghat: q must be even with DHA");
  ShModel out;
  ModelBuilder(in, strength, out).build();
  return out;
}

ShSolution read_solution(const ShInput& in, const ShModel& m, const std::vector<double>& values) {
  ShSolution s;
  const int S = in.slots();
  s.slot_of.assign(in.n, -1);
  for (int v = 0; v < in.n; ++v)
    for (int j = 0; j < S; ++j)
      if (m.vars.x[v][j].index >= 0 && values[m.vars.x[v][j].index] > 0.5) s.slot_of[v] = j;
  auto get = [&](VarId id) { return values[id.index] / m.scale; };
  s.sg_start.assign(S, 0);
  s.sg_fin.assign(S, 0);
  s.dt_start.assign(S, 0);
  s.dt_fin.assign(S, 0);
  for (int j = 1; j < S; ++j) {
    s.sg_start[j] = get(m.vars.sg_start[j]);
    s.sg_fin[j] = get(m.vars.sg_fin[j]);
    s.dt_start[j] = get(m.vars.dt_start[j]);
    s.dt_fin[j] = get(m.vars.dt_fin[j]);
  }
  s.total = get(m.vars.total);
  return s;
}

std::vector<std::pair<VarId, double>> warm_start(const ShInput& in, const ShModel& m, std::vector<int> slot_of) {
  slot_of = canonical(in, std::move(slot_of));
  std::vector<std::pair<VarId, double>> out;
  for (int v = 0; v < in.n; ++v)
    for (int j = 0; j < in.slots(); ++j)
      if (m.vars.x[v][j].index >= 0) out.push_back({m.vars.x[v][j], slot_of[v] == j ? 1.0 : 0.0});
  for (int i = 0; i < static_cast<int>(m.used.size()); ++i) {
    bool holds = false;
    for (int v = 0; v < in.n; ++v) holds = holds || (slot_of[v] > 0 && in.gpu_of_slot(slot_of[v]) == i);
    out.push_back({m.used[i], holds ? 1.0 : 0.0});
  }
  return out;
}

double memory_used(const ShInput& in, const std::vector<int>& slot_of, int i) {
  double used = in.prev_m[i];
  for (int v = 0; v < in.n; ++v) {
    const int sv = slot_of[v];
    if (sv > 0 && in.gpu_of_slot(sv) == i) used += in.mem[v];
    if (sv <= 0 || in.gpu_of_slot(sv) == i) continue;
    // One copy of v into every slot of GPU i that reads it from outside (Eq. 10, 11).
    std::vector<bool> into(static_cast<size_t>(in.slots()), false);
    for (auto [u, w] : in.edges)
      if (u == v && slot_of[w] > 0 && slot_of[w] != sv && in.gpu_of_slot(slot_of[w]) == i) into[slot_of[w]] = true;
    used += in.mem[v] * static_cast<double>(std::count(into.begin(), into.end(), true));
  }
  return used;
}

}  // namespace placesim::scheduler::sortinghat
