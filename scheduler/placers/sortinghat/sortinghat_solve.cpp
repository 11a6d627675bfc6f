// The submodel loop of the header. Chaining (Table 1): after submodel k,
//   PrevM_i        Eq. 11's left side on GPU i (memory is never released between submodels:
//                  conservative, as Eq. 11 is; chained for efficientmip too, since it is
//                  capacity, not schedule)
//   PrevDTFin_b    DTFin of bus b's last slot in round-robin order   (cfg.chain only)
//   PrevSGFin_i    SGFin of GPU i's last slot                         (cfg.chain only)
//   FixedNodes     the placeholder of submodel k+1 in the first slot of the GPU that ran
//                  the partition point it stands for (both placers: it is where the data is)
// Prediction: with chaining the last submodel's TotalLatency (its Eq. 17 carries every GPU's
// earlier finish); without, the submodels run one after another: the sum of their latencies.
// CBC starts from the warm-start heuristic's plan cut into slots, else from a trivial schedule
// (sortinghat_warm.hpp), so a limit rarely leaves a solve without an incumbent; with `warm:
// none` it starts from nothing (what the model alone can do).
#include "scheduler/placers/sortinghat/sortinghat_solve.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "scheduler/placers/sortinghat/sortinghat_schedule.hpp"
#include "scheduler/placers/sortinghat/sortinghat_warm.hpp"

namespace placesim::scheduler::sortinghat {
namespace {

// The model GPU on which an earlier submodel ran op `node` (its last appearance).
int gpu_of(const std::vector<SolvedSubmodel>& solved, int node) {
  int gpu = 0;
  for (const SolvedSubmodel& d : solved)
    for (int x = 0; x < d.sub.in.n; ++x)
      if (d.sm->original[d.sub.node_of[x]] == node) gpu = d.sub.in.gpu_of_slot(d.sol.slot_of[x]);
  return gpu;
}

// The GPU that binds when no schedule fits: the one with the least room left.
std::string memory_message(const Problem& p, const Machine& mc, const ShInput& in, int k, int n) {
  auto room = [&](int i) { return in.capacity[i] <= 0 ? 1e300 : in.capacity[i] - in.prev_m[i]; };  // 0: unlimited
  int worst = 0;
  for (int i = 1; i < in.k; ++i)
    if (room(i) < room(worst)) worst = i;
  double need = 0;
  for (int v = 0; v < in.n; ++v)
    if (!in.is_param[v] || !in.dha) need += in.mem[v];
  return fmt::format("submodel {} of {}: no schedule fits in GPU memory; binding: '{}' ({:.4g} of {:.4g} bytes left, "
                     "the submodel holds at least {:.4g} bytes)",
                     k + 1, n, p.topo->devices[mc.gpus[worst]].id, room(worst),
                     in.capacity[worst], need);
}

}  // namespace

PlacerResult place(const Problem& p, const ShConfig& cfg, const MilpSettings& settings, const std::string& placer,
                   const SolveSeen& seen) {
  const models::Graph& g = *p.graph;
  const SolveBudget budget(settings.time_limit_s);
  const Machine mc = machine(p, cfg);
  const std::optional<ScoredPlan> warm = best_heuristic(p, settings.warm);
  SolveSummary summary;
  summary.chained = cfg.chain;
  summary.node_limit = settings.node_limit;
  if (settings.time_limit_s == 0) return finish_milp(p, std::nullopt, std::nullopt, summary, warm);

  const models::Partition part = models::partition_by_dominators(g, cfg.ndom);
  const std::vector<models::Submodel> subs = models::split_submodels(g, part);
  const int k = static_cast<int>(mc.gpus.size());
  std::vector<double> prev_m(k, 0), prev_sg(k, 0), prev_dt(mc.buses, 0);
  std::vector<bool> used(k, false);
  std::vector<SolvedSubmodel> solved;
  double predicted = 0;
  for (size_t s = 0; s < subs.size(); ++s) {
    SolvedSubmodel cur;
    cur.sm = &subs[s];
    cur.sub = submodel_input(p, mc, cfg, subs[s]);
    ShInput& in = cur.sub.in;
    in.prev_m = prev_m;
    if (cfg.chain) in.prev_sg_fin = prev_sg, in.prev_dt_fin = prev_dt;
    if (cfg.max_gpus > 0) in.used_before = used;
    if (s > 0) {
      cur.point = part.points[s * static_cast<size_t>(cfg.ndom) - 1];
      const int gpu = gpu_of(solved, cur.point);
      for (int x = 0; x < in.n; ++x)
        if (subs[s].original[cur.sub.node_of[x]] < 0) in.fixed.push_back({x, gpu});
    }
    const ShModel model = build_model(in, cfg.strength);
    settings.dump(model.model, static_cast<int>(s), static_cast<int>(subs.size()));
    const double share = budget.share(static_cast<int>(s), static_cast<int>(subs.size()));
    milp::SolveOptions opts = settings.solve_options(p, std::min(share, cfg.submodel_limit_s));
    opts.seconds_per_unit = 1 / model.scale;
    std::vector<int> start;
    if (settings.warm_start) {
      std::optional<std::vector<int>> from_plan;
      if (warm) from_plan = slots_from_plan(cur.sub, subs[s], mc, warm->plan);
      start = from_plan ? *from_plan : trivial_slots(in);
      opts.warm_start = warm_start(in, model, start);
    }
    milp::Result r = milp::solve(model.model, opts);
    if (seen) seen(in, start, r);
    summary.add(r, 1 / model.scale);
    if (r.status == milp::Status::Infeasible)
      return milp_infeasible(summary, memory_message(p, mc, in, static_cast<int>(s), static_cast<int>(subs.size())));
    if (!r.has_solution()) return finish_milp(p, std::nullopt, std::nullopt, summary, warm);
    cur.sol = read_solution(in, model, r.values);
    for (int i = 0; i < k; ++i) {
      prev_m[i] = memory_used(in, cur.sol.slot_of, i);
      prev_sg[i] = cur.sol.sg_fin[(i + 1) * in.q];
    }
    const auto order = in.dt_order();
    for (int b = 0; b < mc.buses; ++b) prev_dt[b] = cur.sol.dt_fin[order[b].back()];
    for (int x = 0; x < in.n; ++x)
      if (cur.sol.slot_of[x] > 0) used[in.gpu_of_slot(cur.sol.slot_of[x])] = true;
    predicted = cfg.chain ? cur.sol.total : predicted + cur.sol.total;
    solved.push_back(std::move(cur));
  }
  return finish_milp(p, merge_plan(p, mc, solved, placer), predicted, summary, warm);
}

}  // namespace placesim::scheduler::sortinghat
