// getf: Generalized Earliest Time First (Su, Ren, Vardi and Wierman, "Communication-aware
// scheduling of precedence-constrained tasks on related machines", arXiv:2004.14639, 2020;
// Operations Research Letters, 2023), the GETF baseline of MOIRAI (Section II, [33]).
//
// GETF = an LP relaxation that fixes the speed group of every task, then Earliest Time First
// (Hwang, Chow, Anger and Lee, SIAM J. Comput. 18(2), 1989) with each task restricted to the
// machines of its group. We could read the paper's abstract only, not its body; the LP and its
// rounding below are those of Chudak and Shmoys ("Approximation algorithms for precedence-
// constrained scheduling problems on parallel machines that run at different speeds",
// J. Algorithms 30, 1999), which GETF's related-machines setting builds on, and MOIRAI confirms
// that GETF's programme leaves communication out.
//
// Groups. Devices (default_devices: the GPUs, else every compute device) with equal durations
// for every op form a group k of m_k machines; p_jk is op j's duration there (Chudak-Shmoys
// round speeds to powers of two first; our groups have one exact speed each, so no rounding
// is needed and K, the number of groups, is the number of distinct device kinds). Real devices
// are not always related (one GPU may be faster at memory-bound ops, another at matmuls):
// p_jk stays each group's own duration, and the LP and the bounds below hold unchanged.
//
// LP (times scaled by the largest p_jk to keep the solver's tolerances meaningful):
//   minimise D  subject to
//     sum_k x_jk = 1                          every op j  (x_jk >= 0; only where j can run on k)
//     p-bar_j = sum_k p_jk x_jk               its fractional processing time
//     C_j >= p-bar_j                           j without op predecessors
//     C_j >= C_i + p-bar_j                     every op edge i -> j
//     C_j <= D                                 j without op successors
//     sum_j p_jk x_jk <= m_k D                 every group k
// A schedule without communication is a solution with integral x, so D* <= OPT.
//
// Rounding: op j goes to the group of its largest x_jk (ties, within the LP solver's primal
// tolerance: the shorter p_jk, then the lower group). Then x_{j,k(j)} >= 1/K, hence p_{j,k(j)} <= K p-bar_j and the load
// L_k = sum_{j: k(j) = k} p_jk <= K sum_j p_jk x_jk <= K m_k D*.
//
// ETF: list_schedule.hpp's etf_schedule (shared with m-ETF) with group_of = k(j), booking
// memory as Baechi does and, under `weights: host`, parameter copies (param_copies.hpp); an op
// that fits on no device of its group makes the result `infeasible`. Predicted makespan: the
// schedule length.
//
// Guarantee (our derivation; the paper's theorem we could not read). With memory unlimited
// and weights resident (parameter copies are outside the paper's model), let c-bar(e) be edge e's largest communication time over device pairs. Hwang et al.'s chain
// argument carries over group by group: ETF's chosen start times never decrease, so while the
// last op of a chain waits with its inputs already on every device, every machine of its group
// is busy. Hence
//   makespan <= sum_k L_k / m_k + max over paths P of sum_{j in P} p_{j,k(j)} + sum_{e in P} c-bar(e)
//            <= K (K + 1) D* + C-bar,      C-bar = max over paths of sum_{e in P} c-bar(e),
// and with D* <= OPT, makespan <= K (K + 1) OPT + C-bar (K = 1: Hwang's 2 OPT + C-bar).
#include "scheduler/placers/getf.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

#include "scheduler/milp/milp.hpp"
#include "sim/core/error.hpp"
#include "sim/core/yaml_doc.hpp"
#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {
namespace {

// LP shares this close count as equal: Clp's primal tolerance.
constexpr double kShareTie = 1e-7;

// Devices with equal durations for every op, groups in order of their first device.
std::vector<std::vector<int>> speed_groups(const Problem& p, const std::vector<int>& devices) {
  const std::vector<int> ops = p.graph->ops();
  std::vector<std::vector<int>> groups;
  for (int d : devices) {
    auto same = [&](const std::vector<int>& grp) {
      for (int op : ops)
        if (p.duration(op, d) != p.duration(op, grp.front())) return false;
      return true;
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) groups.push_back({d});
    else it->push_back(d);
  }
  return groups;
}

// p_jk: op j's duration on a device of group k (kCannotRun where it cannot run there).
std::vector<std::vector<double>> group_durations(const Problem& p, const std::vector<std::vector<int>>& groups) {
  std::vector<std::vector<double>> dur(p.graph->nodes.size());
  for (int j : p.graph->ops())
    for (const std::vector<int>& grp : groups) dur[j].push_back(p.duration(j, grp.front()));
  return dur;
}

// The LP of the header, times divided by `scale`.
struct GroupLp {
  milp::Model model;
  milp::VarId D;
  std::vector<std::vector<milp::VarId>> x;  // [op][group], unset where the op cannot run
};

GroupLp group_lp(const Problem& p, const std::vector<std::vector<int>>& groups,
                 const std::vector<std::vector<double>>& dur, double scale) {
  const models::Graph& g = *p.graph;
  const size_t K = groups.size();
  GroupLp lp;
  milp::Model& m = lp.model;
  lp.D = m.add_continuous("D", 0, milp::kInf, 1.0);
  lp.x.resize(g.nodes.size());
  std::vector<milp::VarId> C(g.nodes.size());
  std::vector<std::vector<milp::Term>> load(K);
  for (int j : g.ops()) {
    lp.x[j].assign(K, milp::VarId{});
    std::vector<milp::Term> one;
    for (size_t k = 0; k < K; ++k) {
      if (dur[j][k] == models::kCannotRun) continue;
      lp.x[j][k] = m.add_continuous(fmt::format("x_{}_{}", j, k), 0, 1);
      one.push_back({lp.x[j][k], 1.0});
      load[k].push_back({lp.x[j][k], dur[j][k] / scale});
    }
    m.add_eq(fmt::format("assign_{}", j), one, 1);
    C[j] = m.add_continuous(fmt::format("C_{}", j), 0, milp::kInf);
  }
  // C_j - C_i - p-bar_j >= 0 (i < 0: C_j - p-bar_j >= 0, for a source).
  auto chain = [&](std::string name, int j, int i) {
    std::vector<milp::Term> t{{C[j], 1.0}};
    if (i >= 0) t.push_back({C[i], -1.0});
    for (size_t k = 0; k < K; ++k)
      if (dur[j][k] != models::kCannotRun) t.push_back({lp.x[j][k], -dur[j][k] / scale});
    m.add_ge(std::move(name), t, 0);
  };
  for (int j : g.ops()) {
    bool has_pred = false, has_succ = false;
    for (int e : g.in_edges(j))
      if (g.nodes[g.edges[e].src].kind == models::NodeKind::Op) has_pred = true, chain(fmt::format("prec_{}", e), j, g.edges[e].src);
    if (!has_pred) chain(fmt::format("first_{}", j), j, -1);
    for (int e : g.out_edges(j)) has_succ |= g.nodes[g.edges[e].dst].kind == models::NodeKind::Op;
    if (!has_succ) m.add_ge(fmt::format("last_{}", j), {{lp.D, 1.0}, {C[j], -1.0}}, 0);
  }
  for (size_t k = 0; k < K; ++k) {
    load[k].push_back({lp.D, -static_cast<double>(groups[k].size())});
    m.add_le(fmt::format("load_{}", k), load[k], 0);
  }
  return lp;
}

// Per op, the group of its largest LP share (ties: the shorter duration, then the lower group).
std::vector<int> round_shares(const Problem& p, const GroupLp& lp, const milp::Result& sol,
                              const std::vector<std::vector<double>>& dur) {
  std::vector<int> group_of(p.graph->nodes.size(), -1);
  for (int j : p.graph->ops()) {
    int best = -1;
    for (size_t k = 0; k < dur[j].size(); ++k) {
      if (dur[j][k] == models::kCannotRun) continue;
      const int kk = static_cast<int>(k);
      if (best < 0) {
        best = kk;
        continue;
      }
      const double a = sol.value(lp.x[j][k]), b = sol.value(lp.x[j][best]);
      if (a > b + kShareTie || (a >= b - kShareTie && dur[j][k] < dur[j][best])) best = kk;
    }
    group_of[j] = best;
  }
  return group_of;
}

}  // namespace

Getf getf_schedule(const Problem& p, std::optional<double> time_limit_s) {
  const models::Graph& g = *p.graph;
  const std::vector<int> devices = default_devices(*p.topo);
  const CommModel comm(p);
  const std::vector<double> rank = upward_rank(p, comm, devices);  // InputError for an op that runs nowhere
  Getf out{speed_groups(p, devices), {}, 0, {Schedule(p), -1}, {}};
  const std::vector<std::vector<double>> dur = group_durations(p, out.groups);
  double scale = 0;  // the largest p_jk, so the LP's numbers are O(1) for the solver's tolerances
  for (int j : g.ops())
    for (double t : dur[j])
      if (t != models::kCannotRun) scale = std::max(scale, t);
  if (scale <= 0) scale = 1;

  const GroupLp lp = group_lp(p, out.groups, dur, scale);
  milp::SolveOptions opts;
  opts.threads = 1;
  if (time_limit_s) opts.time_limit = std::chrono::duration<double>(*time_limit_s);
  const milp::Result sol = milp::solve(lp.model, opts);
  if (sol.status != milp::Status::Optimal && time_limit_s && sol.wall_seconds >= *time_limit_s) {
    out.timed_out = true;
    out.error = fmt::format("GETF's LP did not finish within time_limit {} s ({} ops)", *time_limit_s, g.ops().size());
    return out;
  }
  if (sol.status != milp::Status::Optimal) {
    out.error = fmt::format("GETF's LP ended {}{}{}", milp::to_string(sol.status), sol.message.empty() ? "" : ": ", sol.message);
    return out;
  }
  out.lp_bound = sol.value(lp.D) * scale;
  out.group_of = round_shares(p, lp, sol, dur);
  out.etf = etf_schedule(p, comm, rank, out.groups, out.group_of, std::vector<int>(g.nodes.size(), -1));
  return out;
}

namespace {

class GetfPlacer final : public Placer {
 public:
  explicit GetfPlacer(const PlacerOptions& o) {
    const Yaml t = o.get("time_limit");
    time_limit_s_ = t.number();
    if (!(time_limit_s_ > 0)) throw InputError(t.loc(), "time_limit must be > 0 seconds");
  }

  PlacerResult place(const Problem& p) const override {
    const Getf s = getf_schedule(p, time_limit_s_);
    PlacerResult r;
    if (!s.error.empty()) {
      r.status = s.timed_out ? RunStatus::Limit : RunStatus::Error;
      r.message = s.error;
      return r;
    }
    if (s.etf.stuck >= 0) {
      r.status = RunStatus::Infeasible;
      r.message = fmt::format("op '{}' fits in the memory left on no device of its speed group", p.graph->nodes[s.etf.stuck].name);
      return r;
    }
    r.plan = scheduled_plan(p, "getf", s.etf.schedule);
    r.predicted_s = s.etf.schedule.makespan;
    return r;
  }

 private:
  double time_limit_s_;
};

}  // namespace

void register_getf(Registry<PlacerEntry>& r) {
  r.add("getf",
        {"GETF (Su et al. 2020): an LP relaxation picks each op's speed group, then earliest-time-first within it",
         {{"time_limit", "60", "wall-clock seconds its LP may take (a guard; past it: status timeout, no plan)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<GetfPlacer>(o); },
         PlacerFacts{.sample = {.hardware = "moirai-intraserver", .arch = "random-dag"}}});
}

}  // namespace placesim::scheduler
