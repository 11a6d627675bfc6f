// Max-min solver speed on a 2-level tree: 8 pods of 32 leaves; each leaf has an up and a down
// link (10 GB/s) to its pod switch, each pod an up and a down link (40 GB/s) to the spine. A
// flow between leaves in different pods crosses 4 links (leaf up, pod up, pod down, leaf down),
// within a pod 2. Flows carry their size as coefficient, as the executor's transfers do.
//   Full:        solve_all() with N flows.
//   Incremental: remove one flow, add another, solve() (the parts those changes reach).
#include <benchmark/benchmark.h>

#include <limits>
#include <random>
#include <vector>

#include "sim/engine/max_min.hpp"

namespace {

using placesim::engine::ConstraintId;
using placesim::engine::MaxMinSystem;
using placesim::engine::VariableId;

constexpr int kPods = 8;
constexpr int kLeavesPerPod = 32;
constexpr double kLeafBw = 10e9;
constexpr double kPodBw = 40e9;
constexpr double kUnbounded = std::numeric_limits<double>::infinity();

struct Tree {
  MaxMinSystem sys;
  std::vector<ConstraintId> leaf_up, leaf_down, pod_up, pod_down;
  std::mt19937 rng{1};

  Tree() {
    for (int p = 0; p < kPods; ++p) {
      pod_up.push_back(sys.add_constraint(kPodBw));
      pod_down.push_back(sys.add_constraint(kPodBw));
    }
    for (int l = 0; l < kPods * kLeavesPerPod; ++l) {
      leaf_up.push_back(sys.add_constraint(kLeafBw));
      leaf_down.push_back(sys.add_constraint(kLeafBw));
    }
  }

  VariableId add_flow() {
    std::uniform_int_distribution<int> leaf(0, kPods * kLeavesPerPod - 1);
    std::uniform_real_distribution<double> bytes(1e6, 1e9);
    const int src = leaf(rng);
    int dst = leaf(rng);
    while (dst == src) dst = leaf(rng);
    const double b = bytes(rng);
    const VariableId v = sys.add_variable(kUnbounded);
    sys.expand(v, leaf_up[src], b);
    if (src / kLeavesPerPod != dst / kLeavesPerPod) {
      sys.expand(v, pod_up[src / kLeavesPerPod], b);
      sys.expand(v, pod_down[dst / kLeavesPerPod], b);
    }
    sys.expand(v, leaf_down[dst], b);
    return v;
  }
};

void BM_MaxMinFull(benchmark::State& state) {
  Tree t;
  for (int i = 0; i < state.range(0); ++i) t.add_flow();
  for (auto _ : state) {
    t.sys.solve_all();
    benchmark::DoNotOptimize(t.sys.rate(0));
  }
  state.counters["flows"] = static_cast<double>(state.range(0));
}

void BM_MaxMinIncremental(benchmark::State& state) {
  Tree t;
  std::vector<VariableId> flows;
  for (int i = 0; i < state.range(0); ++i) flows.push_back(t.add_flow());
  t.sys.solve();
  std::size_t k = 0;
  for (auto _ : state) {
    t.sys.remove_variable(flows[k]);
    flows[k] = t.add_flow();
    t.sys.solve();
    benchmark::DoNotOptimize(t.sys.rate(flows[k]));
    k = (k + 1) % flows.size();
  }
  state.counters["flows"] = static_cast<double>(state.range(0));
}

}  // namespace

BENCHMARK(BM_MaxMinFull)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MaxMinIncremental)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
