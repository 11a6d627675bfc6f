// Collectives in flow fidelity at scale: ring all-reduce on 64 and 512 ranks over a ring of
// links, direct all-to-all on 64 ranks through one switch (each rank: 64 flows per 2 links,
// 4032 flows sharing at once). The graph is built once; the loop times simulate() alone and
// reports tasks/s (lowering is timed separately).
#include <benchmark/benchmark.h>

#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;
using namespace placesim::engine;

struct Built {
  TaskGraph graph;
  CollectiveSpec spec;
};

// 25 GB/s, 2 us links; 256 MiB all-reduce buffer or all-to-all send buffer per rank.
void build(Built& b, CollectiveOp op, const char* algorithm, int n) {
  b.spec.op = op;
  b.spec.algorithm = algorithm;
  for (int i = 0; i < n; ++i) b.spec.group.push_back(i);
  b.spec.bytes = 256.0 * (1 << 20);
  const LinkNetwork net = op == CollectiveOp::AllToAll ? switch_network(b.graph, n, 25e9, 2'000'000)
                                                       : ring_network(b.graph, n, 25e9, 2'000'000);
  lower_collective(b.graph, b.spec, net);
}

void simulate_collective(benchmark::State& state, CollectiveOp op, const char* algorithm) {
  Built b;
  build(b, op, algorithm, static_cast<int>(state.range(0)));
  double makespan = 0;
  for (auto _ : state) {
    makespan = to_seconds(simulate(b.graph).makespan);
    benchmark::DoNotOptimize(makespan);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * b.graph.tasks.size()));
  state.counters["tasks"] = static_cast<double>(b.graph.tasks.size());
  state.counters["sim_ms"] = makespan * 1e3;
}

void lower_collective_bench(benchmark::State& state, CollectiveOp op, const char* algorithm) {
  for (auto _ : state) {
    Built b;
    build(b, op, algorithm, static_cast<int>(state.range(0)));
    benchmark::DoNotOptimize(b.graph.tasks.size());
  }
}

BENCHMARK_CAPTURE(simulate_collective, ring_all_reduce, CollectiveOp::AllReduce, "ring")->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_collective, direct_all_to_all, CollectiveOp::AllToAll, "direct")->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lower_collective_bench, ring_all_reduce, CollectiveOp::AllReduce, "ring")->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lower_collective_bench, direct_all_to_all, CollectiveOp::AllToAll, "direct")->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
