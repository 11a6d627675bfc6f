// The MILP placers on growing graphs: solve time, gap, and how well the wall-clock limit holds.
//
// Graphs: GPT-3 175B's op graph (Brown et al. 2020) truncated to L layers, prefill of 128 tokens,
// FP16, on the SortingHat V100 station: 10 L + 3 ops, so L = 5, 20, 50, 96 give 53, 203, 503
// and 963 ops; and seeded random layered DAGs (models/generators/random_dag.hpp) of about 2000
// ops for the largest size (the transformer generator stops at 96 layers). milp-sortinghat gets
// weights: host (its model is about copying them in), milp-moirai weights: resident, with and
// without GCOF coarsening (epilogue rules).
//
// Each run is one placement, time_limit = 1 s per MILP solve (a guard, as in the scenarios).
// Counters:
//   ops         op nodes of the graph
//   status      0 ok (every solve proven), 1 timeout (a limit hit), 2 infeasible, 3 error
//   gap         the largest relative gap over the placement's solves (-1: +inf, nothing found)
//   wall_s      wall-clock seconds of the placement (warm start and simulation included)
//   vs_heft     simulated makespan of the returned plan / HEFT's (<= 1: never worse)
// The limit is held when wall_s stays near (solves x time_limit) plus the warm start's time;
// the placer's message (printed with -v) states the number of solves.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/placers/milp_support.hpp"
#include "sim/core/log.hpp"
#include "sim/core/yaml_doc.hpp"

namespace {

using namespace placesim;

std::shared_ptr<const models::Graph> transformer(int layers) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.layers = layers;
  spec.seq = 128;
  spec.dtype = models::DType::FP16;
  return std::make_shared<const models::Graph>(models::generate_transformer(spec));
}

std::shared_ptr<const models::Graph> random_dag(int ops) {
  models::RandomDagSpec spec;
  spec.depth = ops / 20;
  spec.width = 20;
  spec.flops = 2e10;
  return std::make_shared<const models::Graph>(models::generate_random_dag(spec));
}

void place(benchmark::State& state, const std::shared_ptr<const models::Graph>& g, const std::string& spec,
           scheduler::WeightsMode weights) {
  scheduler::Problem p;
  p.graph = g;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "bench")));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = weights;
  const scheduler::PlacerSpec placer = scheduler::make_placer(Yaml::load_string(spec, "bench"));
  const double heft = scheduler::best_heuristic(p, {"heft"})->simulated_s;
  scheduler::PlacerResult r;
  double wall = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    r = placer.placer->place(p);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const int status = r.status == "ok" ? 0 : r.status == "timeout" ? 1 : r.status == "infeasible" ? 2 : 3;
  state.counters["ops"] = static_cast<double>(g->ops().size());
  state.counters["status"] = status;
  state.counters["gap"] = r.gap && std::isfinite(*r.gap) ? *r.gap : -1;
  state.counters["wall_s"] = wall;
  state.counters["vs_heft"] = r.plan ? scheduler::simulated_makespan(p, *r.plan) / heft : NAN;
  log().info("{}: {}", spec, r.message);
}

void BM_SortingHat(benchmark::State& state) {
  place(state, transformer(static_cast<int>(state.range(0))), "{name: milp-sortinghat, time_limit: 1}",
        scheduler::WeightsMode::Host);
}
BENCHMARK(BM_SortingHat)->Arg(5)->Arg(20)->Arg(50)->Arg(96)->Iterations(1)->Unit(benchmark::kSecond);

void BM_Moirai(benchmark::State& state) {
  const bool coarsen = state.range(1) != 0;
  place(state, transformer(static_cast<int>(state.range(0))),
        coarsen ? "{name: milp-moirai, time_limit: 1}" : "{name: milp-moirai, time_limit: 1, coarsen: false}",
        scheduler::WeightsMode::Resident);
}
BENCHMARK(BM_Moirai)->ArgsProduct({{5, 20, 50, 96}, {0, 1}})->Iterations(1)->Unit(benchmark::kSecond);

void BM_RandomDag2000(benchmark::State& state) {
  const bool sortinghat = state.range(0) == 0;
  place(state, random_dag(2000), sortinghat ? "{name: milp-sortinghat, time_limit: 1}" : "{name: milp-moirai, time_limit: 1}",
        scheduler::WeightsMode::Resident);
}
BENCHMARK(BM_RandomDag2000)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
