// HEFT on seeded random layered DAGs of 1k, 10k and 100k ops (mean out-degree about 4) on 8
// and 64 GPUs behind one PCIe switch, with GPU speeds spread over 1x-4x. HEFT is O(v^2 p)
// naively; ours is O(e p) for the ESTs plus the insertion gap search (heft.cpp), so the time
// per op and device should stay roughly flat from 1k to 100k ops.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"
#include "scheduler/placers/heft.hpp"

namespace placesim::scheduler {
namespace {

Problem heft_problem(int ops, int gpus) {
  std::string yaml = "devices:\n  - {id: sw, type: switch}\n";
  std::string links = "links:\n";
  for (int i = 0; i < gpus; ++i) {
    yaml += fmt::format("  - {{id: gpu{}, type: gpu, fp32: {}TFLOPS, memory_bw: 900GB/s, memory: 80GB}}\n", i,
                        10 + 30 * (i % 4) / 3);
    links += fmt::format("  - {{a: gpu{}, b: sw, bw: 16GB/s, latency: 1us, kind: pcie}}\n", i);
  }
  models::RandomDagSpec spec;
  spec.seed = 1;
  spec.width = 100;
  spec.depth = ops / spec.width;
  spec.density = 4.0 / spec.width;
  spec.ccr = 1;
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology_text(yaml + links, "bench.yaml"));
  p.graph = std::make_shared<const models::Graph>(models::generate_random_dag(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = WeightsMode::Resident;
  return p;
}

void BM_Heft(benchmark::State& state) {
  const Problem p = heft_problem(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const std::vector<int> devices = p.topo->compute_devices();
  for (auto _ : state) benchmark::DoNotOptimize(heft_schedule(p, devices, true).makespan);
  state.counters["ops"] = static_cast<double>(p.graph->ops().size());
  state.counters["edges"] = static_cast<double>(p.graph->edges.size());
  state.counters["ns_per_edge_device"] = benchmark::Counter(
      static_cast<double>(p.graph->edges.size() * devices.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Heft)->ArgsProduct({{1000, 10000, 100000}, {8, 64}})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace placesim::scheduler

BENCHMARK_MAIN();
