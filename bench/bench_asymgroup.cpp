// AsymGroup's group search (scheduler/placers/tensor_parallel/asymgroup_cost.hpp) over every k, on
// nodes of 1 or 2 GPUs drawn at random (capability 1 or 2), and, for comparison, of 1 or 2 GPUs of
// a throughput in [0.5, 2) (non-integer capabilities: fewer terms of Eq. 2 tie, so the greedy's
// bounds prune less, and it makes hundreds of moves where integer ones make a few; kept to 256
// nodes, which take seconds). Goal: 1024 nodes of 1 or 2 GPUs in under a second.
#include <benchmark/benchmark.h>

#include <random>

#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"

namespace placesim::scheduler::asymgroup {
namespace {

Capabilities random_caps(int nodes, bool throughputs) {
  std::mt19937 rng(1);
  Capabilities c(nodes);
  for (double& x : c) {
    const double gpus = 1 + rng() % 2;
    x = throughputs ? gpus * (0.5 + 1.5 * (rng() / 4294967296.0)) : gpus;
  }
  return c;
}

void BM_AsymgroupSearch(benchmark::State& state) {
  const Capabilities c = random_caps(static_cast<int>(state.range(0)), state.range(1) != 0);
  int moves = 0;
  for (auto _ : state) {
    const SearchResult r = search_groups(c, 1.0);
    moves = 0;
    for (const KResult& x : r.per_k) moves += x.moves;
    state.counters["best_k"] = r.k;
  }
  state.counters["moves"] = moves;
}
BENCHMARK(BM_AsymgroupSearch)
    ->ArgNames({"nodes", "throughputs"})
    ->Args({256, 0})
    ->Args({1024, 0})
    ->Args({64, 1})
    ->Args({256, 1})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace placesim::scheduler::asymgroup

BENCHMARK_MAIN();
