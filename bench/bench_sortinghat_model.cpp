// SortingHat's MILP before and after each of issue 15's additions (ShStrength), on the reduced grid's
// largest submodel, in one run.
//
// The submodel: of every point of scenarios/sortinghat/reduced.yaml, the submodel with the most
// nodes (ties: the most GPUs, then the first); its constants are those milp-sortinghat chains to
// it (warm start from [heft, single-device, deepplan], node_limit kChainNodes per solve, so the
// chain is the same on every run), and each variant starts CBC from the placer's warm start.
//   BM_Nodes/<v>/<q>       node_limit kNodes; counters: nodes, nodes_per_s, gap, bound (model
//                          units: the big-M is 1000), n (nodes of the submodel), k (GPUs)
//   BM_TimeToGap/<v>/<q>   stops at a 10% gap or after kGapLimit s; counters: seconds (to the
//                          gap, or the limit), reached (1: 10% proven), gap, nodes
//   BM_TimeToOptimal/<v>/<q>  the same to a proven optimum (the placer's gap, 1e-6)
// Arguments: <variant>/<q>. Variants: variant() below; at q = 4 (the placer's default) and
// q = 6 (the paper's).
// Run from the repository root (the scenario's path is relative).
#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/placers/sortinghat/sortinghat_solve.hpp"
#include "sim/core/yaml_doc.hpp"
#include "app/explore/scenario.hpp"

namespace {

using namespace placesim;
using namespace placesim::scheduler;
using namespace placesim::scheduler::sortinghat;

constexpr int kChainNodes = 100;
constexpr int kNodes = 2000;
constexpr double kGapLimit = 60;

struct Largest {
  ShInput in;
  std::vector<int> start;
};

// The largest submodel of the grid with q slots per GPU, as the placer chains it (header).
const Largest& largest(int q) {
  static std::map<int, Largest> found;
  if (!found.count(q)) {
    const explore::Scenario sc = explore::load_scenario("scenarios/sortinghat/reduced.yaml");
    const MilpSettings settings(PlacerOptions(
        milp_option_specs("60"),
        Yaml::load_string("{warm: [heft, single-device, deepplan], time_limit: 1e9, node_limit: " +
                              std::to_string(kChainNodes) + "}",
                          "bench")),
        "milp-sortinghat");
    // The point whose largest submodel is largest (partitioning costs nothing, solving does).
    ShConfig cfg;
    cfg.q = q;
    std::optional<size_t> best_point;
    std::pair<int, int> best_size{0, 0};
    for (size_t pt = 0; pt < sc.points.size(); ++pt) {
      const Problem p = explore::build_problem(sc, sc.points[pt]);
      const Machine mc = machine(p, cfg);
      const auto subs = models::split_submodels(*p.graph, models::partition_by_dominators(*p.graph, cfg.ndom));
      for (const models::Submodel& sm : subs) {
        const std::pair<int, int> size{submodel_input(p, mc, cfg, sm).in.n, static_cast<int>(mc.gpus.size())};
        if (size > best_size) best_size = size, best_point = pt;
      }
    }
    const Problem p = explore::build_problem(sc, sc.points[*best_point]);
    Largest out;
    std::pair<int, int> size{0, 0};
    place(p, cfg, settings, "milp-sortinghat", [&](const ShInput& in, const std::vector<int>& start, const milp::Result&) {
      if (std::pair<int, int>{in.n, in.k} > size) size = {in.n, in.k}, out = {in, start};
    });
    found[q] = out;
  }
  return found[q];
}

// 0: nothing of issue 15; 1: the release floor; 2: the floor and branching priorities (all).
ShStrength variant(int v) { return ShStrength{v >= 1, v >= 2}; }

const char* kVariantNames[] = {"before", "floor", "floor+priorities"};

milp::Result solve(int v, int q, milp::SolveOptions opts) {
  const Largest& l = largest(q);  // built before the timed loops
  const ShModel m = build_model(l.in, variant(v));
  opts.seed = 1;
  opts.threads = 1;
  opts.warm_start = warm_start(l.in, m, l.start);
  return milp::solve(m.model, opts);
}

void variants(benchmark::internal::Benchmark* b) { b->ArgsProduct({{0, 1, 2}, {4, 6}}); }

void BM_Nodes(benchmark::State& state) {
  const int v = static_cast<int>(state.range(0));
  milp::SolveOptions opts;
  opts.node_limit = kNodes;
  milp::Result r;
  const int q = static_cast<int>(state.range(1));
  largest(q);
  for (auto _ : state) r = solve(v, q, opts);
  state.counters["nodes"] = static_cast<double>(r.nodes);
  state.counters["nodes_per_s"] = static_cast<double>(r.nodes) / r.wall_seconds;
  state.counters["gap"] = r.gap;
  state.counters["bound"] = r.best_bound;
  state.counters["n"] = largest(q).in.n;
  state.counters["k"] = largest(q).in.k;
  state.SetLabel(kVariantNames[v]);
}
BENCHMARK(BM_Nodes)->Apply(variants)->Iterations(1)->Unit(benchmark::kSecond);

// Stops at a relative gap of `gap` or after kGapLimit s.
void time_to_gap(benchmark::State& state, double gap) {
  const int v = static_cast<int>(state.range(0));
  milp::SolveOptions opts;
  opts.relative_gap = gap;
  opts.time_limit = std::chrono::duration<double>(kGapLimit);
  milp::Result r;
  const int q = static_cast<int>(state.range(1));
  largest(q);
  for (auto _ : state) r = solve(v, q, opts);
  state.counters["seconds"] = r.wall_seconds;
  state.counters["reached"] = r.status == milp::Status::Optimal;
  state.counters["gap"] = r.gap;
  state.counters["nodes"] = static_cast<double>(r.nodes);
  state.SetLabel(kVariantNames[v]);
}

void BM_TimeToGap(benchmark::State& state) { time_to_gap(state, 0.1); }
BENCHMARK(BM_TimeToGap)->Apply(variants)->Iterations(1)->Unit(benchmark::kSecond);

void BM_TimeToOptimal(benchmark::State& state) { time_to_gap(state, 1e-6); }
BENCHMARK(BM_TimeToOptimal)->Apply(variants)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
