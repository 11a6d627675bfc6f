// The MILP placers on growing graphs: solve time, gap, and how well the wall-clock limit holds.
//
// Graphs: GPT-3 175B's op graph (Brown et al. 2020) truncated to L layers, prefill of 128 tokens,
// FP16, on the SortingHat V100 station (GPU memory raised to 1 TB): 10 L + 3 ops, so L = 5, 20, 50, 96 give 53, 203, 503
// and 963 ops; and seeded random layered DAGs (models/generators/random_dag.hpp) of 2000 ops for
// the largest size (the transformer generator stops at 96 layers). milp-sortinghat gets
// weights: host (its model is about copying them in), on the op graph and on the layer graph
// (one node per transformer layer: the coarse form); milp-moirai weights: resident, with and
// without GCOF coarsening (epilogue rules).
//
// Each run is one placement with time_limit = kLimit seconds for the whole placement (shared by
// its solves, as the placers define it). Counters:
//   nodes       graph nodes the placer sees (ops)
//   status      0 ok (every solve proven), 1 timeout (a limit hit), 2 infeasible, 3 error
//   gap         the largest relative gap over the placement's solves (-1: +inf, a solve
//               returned its warm start unsolved)
//   wall_s      wall-clock seconds of the placement (warm start and final simulation included)
//   overrun_s   wall_s - kLimit: how well the limit is held (CBC cannot stop inside
//               preprocessing or one LP, and the plans are simulated after the last solve)
//   vs_best     simulated makespan of the returned plan / the best heuristic's (HEFT, m-ETF,
//               m-SCT, DeepPlan, single device; nan: none fits)
// The label is the placer's message: its solves, nodes, solver seconds and which plan won.
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
#include "sim/core/yaml_doc.hpp"

namespace {

using namespace placesim;

constexpr double kLimit = 5;

std::shared_ptr<const models::Graph> transformer(int layers, models::Granularity granularity = models::Granularity::Op) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.layers = layers;
  spec.granularity = granularity;
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
  // GPU memory raised to 1 TB: GPT-3 175B's larger truncations do not fit four 32 GB V100s,
  // and this bench measures solving, not capacity.
  hw::Topology topo = hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "bench"));
  for (hw::Device& d : topo.devices)
    if (d.kind == hw::DeviceKind::Gpu) d.memory = 1e12;
  p.topo = std::make_shared<const hw::Topology>(std::move(topo));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = weights;
  const scheduler::PlacerSpec placer = scheduler::make_placer(Yaml::load_string(spec, "bench"));
  // Large models do not fit every heuristic (HEFT books no memory): the best one that fits.
  const std::optional<scheduler::ScoredPlan> best = scheduler::best_heuristic(p, {"heft", "m-etf", "m-sct", "deepplan", "single-device"});
  scheduler::PlacerResult r;
  double wall = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    r = placer.placer->place(p);
    wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  using scheduler::RunStatus;
  const int status = r.status == RunStatus::Ok ? 0 : r.status == RunStatus::Limit ? 1 : r.status == RunStatus::Infeasible ? 2 : 3;
  state.counters["nodes"] = static_cast<double>(g->ops().size());
  state.counters["status"] = status;
  state.counters["gap"] = r.gap && std::isfinite(*r.gap) ? *r.gap : -1;
  state.counters["wall_s"] = wall;
  state.counters["overrun_s"] = wall - kLimit;
  state.counters["vs_best"] = r.plan && best ? scheduler::simulated_makespan(p, *r.plan) / best->simulated_s : NAN;
  state.SetLabel(r.message);
}

std::string spec(const std::string& placer, const std::string& extra = "") {
  return "{name: " + placer + ", time_limit: " + std::to_string(kLimit) + extra + "}";
}

void BM_SortingHat(benchmark::State& state) {
  const bool layers = state.range(1) != 0;
  place(state, transformer(static_cast<int>(state.range(0)), layers ? models::Granularity::Layer : models::Granularity::Op),
        spec("milp-sortinghat"), scheduler::WeightsMode::Host);
}
BENCHMARK(BM_SortingHat)->ArgsProduct({{5, 20, 50, 96}, {0, 1}})->Iterations(1)->Unit(benchmark::kSecond);

void BM_Moirai(benchmark::State& state) {
  const bool coarsen = state.range(1) != 0;
  place(state, transformer(static_cast<int>(state.range(0))), spec("milp-moirai", coarsen ? "" : ", coarsen: false"),
        scheduler::WeightsMode::Resident);
}
BENCHMARK(BM_Moirai)->ArgsProduct({{5, 20, 50, 96}, {0, 1}})->Iterations(1)->Unit(benchmark::kSecond);

void BM_RandomDag2000(benchmark::State& state) {
  place(state, random_dag(2000), spec(state.range(0) == 0 ? "milp-sortinghat" : "milp-moirai"),
        scheduler::WeightsMode::Resident);
}
BENCHMARK(BM_RandomDag2000)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
