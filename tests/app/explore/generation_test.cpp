// Whole generations (phase: generate) run by the scenario runner, worked by hand on one GPU where
// a decode step's time is a closed form in its KV length.
//
// One GPU: memory 1000 GB/s, tensor 100 TFLOPS, no launch overhead, no cache; weights resident;
// the single-device placer. Every step runs its ops one after another, so its makespan is the sum
// of their roofline times. In a decode step only attention depends on the positions kv it attends
// over: it reads the K and V caches, 2*B*kv*kvd*a bytes, and is memory bound (83,520 flops per
// position at 100 TFLOPS: 0.8 ns; 81,920 bytes at 1000 GB/s: 81.9 ns). So with B = 16, L = 2
// layers, kvd = h = 1280 and a = 2 bytes (fp16):
//
//   T(kv) = T(kv0) + (kv - kv0) * slope,   slope = L * 2*B*kvd*a / bw = 163,840 B / 1e12 B/s = 163.84 ns
//
// A prompt of I = 8 and O = 9 output tokens: the prefill makes token 1 (TTFT), decode steps at
// kv 9..16 make the other 8.
//   exact:    sum = 8 T(9) + slope * (0 + 1 + ... + 7) = 8 T(9) + 28 slope
//   stride 3: steps 1-3, 4-6, 7-8 simulated at kv 11, 14, 16 for 3, 3 and 2 steps:
//             sum = 3 T(11) + 3 T(14) + 2 T(16) = 8 T(9) + (3*2 + 3*5 + 2*7) slope = 8 T(9) + 35 slope
//   TPOT = sum / 8; makespan (end-to-end) = TTFT + sum.
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"
#include "app/explore/runner.hpp"

namespace placesim::explore {
namespace {

constexpr double kSlope = 2 * 2 * 16 * 1280 * 2 / 1e12;  // seconds per position, both layers
constexpr double kTol = 1e-9;  // each op's end is rounded up to a picosecond: well under 1 ns in all

// One placer on the one-GPU machine; `model` holds the transformer keys besides arch, layers,
// batch and dtype.
RunResult run_point(const std::string& model, const std::string& memory = "16GiB",
                    const std::string& placers = "[single-device]") {
  const std::string dir = testing::temp_dir("generation");
  const std::string path = dir + "/g.yaml";
  std::ofstream(path) << fmt::format(
      "hardware:\n"
      "  devices:\n"
      "    - {{id: host, type: host_memory, memory: 64GiB}}\n"
      "    - {{id: gpu0, type: gpu, memory: {}, memory_bw: 1000GB/s, fp32: 10TFLOPS, tensor: 100TFLOPS}}\n"
      "  links:\n"
      "    - {{a: host, b: gpu0, bw: 10GB/s, latency: 1us}}\n"
      "model: {{generator: transformer, arch: gpt2-large, layers: 2, batch: 16, dtype: fp16, {}}}\n"
      "weights: resident\n"
      "placers: {}\n",
      memory, model, placers);
  return run_scenario(load_scenario(path), RunOptions{}).runs.at(0);
}

double step_makespan(const std::string& model) {
  const RunResult r = run_point(model);
  EXPECT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  return r.makespan_s.value_or(-1);
}

TEST(Generation, TtftTpotAndLatencyFollowTheStepMakespans) {
  const double ttft = step_makespan("seq: 8, phase: prefill");
  const double t9 = step_makespan("seq: 9, phase: decode");
  // The closed form holds over the generation's range.
  EXPECT_NEAR(step_makespan("seq: 16, phase: decode"), t9 + 7 * kSlope, kTol);

  const RunResult r = run_point("seq: 8, phase: generate, output: 9");
  ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  ASSERT_TRUE(r.generation);
  EXPECT_EQ(r.generation->ttft_s, ttft);  // the same prefill, simulated alike
  const double sum = 8 * t9 + 28 * kSlope;
  EXPECT_NEAR(*r.generation->tpot_s, sum / 8, kTol);
  EXPECT_NEAR(*r.makespan_s, ttft + sum, 8 * kTol);
  EXPECT_EQ(r.generation->kv_stride, 1);
  EXPECT_EQ(r.generation->weights_shared, true);  // one GPU holds every weight in both plans
  EXPECT_TRUE(r.message.empty()) << r.message;
}

TEST(Generation, StrideCountsEachSimulatedStepForItsBlock) {
  const double ttft = step_makespan("seq: 8, phase: prefill");
  const double t9 = step_makespan("seq: 9, phase: decode");
  const RunResult r = run_point("seq: 8, phase: generate, output: 9, kv_stride: 3");
  ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  const double sum = 8 * t9 + 35 * kSlope;
  EXPECT_NEAR(*r.generation->tpot_s, sum / 8, kTol);
  EXPECT_NEAR(*r.makespan_s, ttft + sum, 8 * kTol);
  EXPECT_EQ(r.generation->kv_stride, 3);
  // A stride never undercounts: each block is timed at its largest cache.
  EXPECT_GT(*r.makespan_s, *run_point("seq: 8, phase: generate, output: 9").makespan_s);
}

TEST(Generation, OneOutputTokenIsThePrefillAlone) {
  const RunResult r = run_point("seq: 8, phase: generate, output: 1");
  ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  EXPECT_EQ(r.makespan_s, r.generation->ttft_s);
  EXPECT_EQ(r.makespan_s, step_makespan("seq: 8, phase: prefill"));
  EXPECT_FALSE(r.generation->tpot_s);
}

// Memory is checked at the largest KV cache, the last step's, whatever the stride: on a GPU with
// room for every step but the last, the generation is infeasible, at the decode.
TEST(Generation, MemoryIsCheckedAtTheLastStep) {
  // 999 decode steps, kv 9..1007; with stride 100 the simulated steps end at kv 108, ..., 908
  // and 1007 (the last, standing for 99 steps).
  const std::string gen = "seq: 8, phase: generate, output: 1000, kv_stride: 100";
  const double last = run_point("seq: 1007, phase: decode").peak_mem_bytes.at("gpu0");
  const double before = run_point("seq: 1006, phase: decode").peak_mem_bytes.at("gpu0");
  const double prefill = run_point("seq: 8, phase: prefill").peak_mem_bytes.at("gpu0");
  ASSERT_LT(before, last);
  ASSERT_LT(prefill, before);
  const RunResult fits = run_point(gen);
  ASSERT_EQ(fits.status, scheduler::RunStatus::Ok) << fits.message;
  EXPECT_EQ(fits.peak_mem_bytes.at("gpu0"), last);  // the peak over the generation is the last step's

  const RunResult r = run_point(gen, fmt::format("{:.0f}", (before + last) / 2));
  EXPECT_EQ(r.status, scheduler::RunStatus::Infeasible);
  EXPECT_EQ(r.message.rfind("decode: peak memory", 0), 0u) << r.message;
  EXPECT_FALSE(r.makespan_s);
  EXPECT_EQ(r.generation->ttft_s, fits.generation->ttft_s);  // the prefill fitted and ran
}

// A bound (no plan) has no generation to simulate; it keeps its prediction of the prefill, a
// lower bound on the whole, and the plan-making placers beside it still run.
TEST(Generation, ABoundKeepsItsPrefillPrediction) {
  const RunResult r = run_point("seq: 8, phase: generate, output: 4", "16GiB", "[critical-path, single-device]");
  EXPECT_EQ(r.status, scheduler::RunStatus::Ok);
  EXPECT_FALSE(r.makespan_s);
  ASSERT_TRUE(r.predicted_s);
  EXPECT_LE(*r.predicted_s, step_makespan("seq: 8, phase: prefill"));
}

}  // namespace
}  // namespace placesim::explore
