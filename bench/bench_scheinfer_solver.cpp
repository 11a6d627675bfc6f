// The ScheInfer solver on LLaMA-2 70B decode (T = 1, M = 8192, H = 28672, three GEMMs per layer,
// 80 layers, INT4: half a byte per weight) with Table I's Testbed-A INT4 fits (GPU 4.7e-6 /
// 8.1e-13, CPU 1.1e-5 / 5.4e-12, PCIe 3.0e-6 / 2.6e-11, launch 4.4e-5), n_G = 10 and a 12 GB
// (12e9 bytes) budget of the model's 28.2 GB: assign_gg (which runs solve_cg for every layer and
// r_GG) and one solve_cg. Goal: assign_gg well under 1 ms. "distinct" gives every layer its own
// H (28672 - 64 j), so no layer shares another's solve_cg row, and the whole-layer knapsack has
// 80 sizes of nearly equal gain per byte, its hard case (its Pareto frontier grows to 14148
// points): no real model looks like that, so it has no goal; it shows what such a one costs.
#include <benchmark/benchmark.h>

#include "scheduler/placers/offload/solver.hpp"

namespace placesim::scheduler::scheinfer {
namespace {

Hardware testbed_a_int4() {
  Hardware hw;
  hw.gpu = {4.7e-6, 8.1e-13};
  hw.cpu = {1.1e-5, 5.4e-12};
  hw.c2g = {3.0e-6, 2.6e-11};
  hw.launch = 4.4e-5;
  return hw;
}

Block llama2_70b_decode(double H) {
  const Gemm g{8192 * H, 8192 * H * 0.5};
  return {{g, g, g}};
}

void BM_AssignGg(benchmark::State& state) {
  const bool distinct = state.range(0) != 0;
  std::vector<Block> layers;
  for (int j = 0; j < 80; ++j) layers.push_back(llama2_70b_decode(distinct ? 28672 - 64 * j : 28672));
  const Hardware hw = testbed_a_int4();
  GgAssignment a;
  for (auto _ : state) {
    a = assign_gg(hw, layers, 12e9, 10);
    benchmark::DoNotOptimize(a);
  }
  state.counters["t_total_ms"] = a.t_total * 1e3;
  state.counters["GB"] = a.bytes / 1e9;
  state.counters["whole_layers"] = a.source == "whole layers";
}
BENCHMARK(BM_AssignGg)->ArgNames({"distinct"})->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_SolveCg(benchmark::State& state) {
  const Block layer = llama2_70b_decode(28672);
  const Hardware hw = testbed_a_int4();
  for (auto _ : state) benchmark::DoNotOptimize(solve_cg(hw, layer, 0.3));
}
BENCHMARK(BM_SolveCg)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace placesim::scheduler::scheinfer

BENCHMARK_MAIN();
