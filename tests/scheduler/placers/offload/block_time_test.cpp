// block_time (Eq. 4 with Eq. 5) and prompt_block_time (Eq. 15) against cases worked by hand:
// one dense block (three equal GEMMs) in each case of Eq. 10-12, LLaMA-2 7B decode on Table I's
// Testbed-A, GEMMs of unequal sizes, and the prompt phase's split. The small cases use unit fits,
// so every number is exact (the model is linear: any unit works).
#include <gtest/gtest.h>

#include "random_blocks.hpp"

namespace {

using namespace scheinfer_test;

si::Hardware unit_hw(double launch, si::Fit c2g, si::Fit gpu, si::Fit cpu) {
  si::Hardware hw;
  hw.launch = launch;
  hw.c2g = c2g;
  hw.gpu = gpu;
  hw.cpu = cpu;
  return hw;
}

si::Block three(double work, double bytes) { return {{{work, bytes}, {work, bytes}, {work, bytes}}}; }

void expect_ends(const si::StreamEnds& e, double launch, double copy, double gpu, double cpu) {
  EXPECT_DOUBLE_EQ(e.launch, launch);
  EXPECT_DOUBLE_EQ(e.copy, copy);
  EXPECT_DOUBLE_EQ(e.gpu, gpu);
  EXPECT_DOUBLE_EQ(e.cpu, cpu);
  EXPECT_DOUBLE_EQ(e.fin, std::max(gpu, cpu));
}

// Case 1 (Q1, Q2 true: the copy dominates). Work 4, bytes 10; cc 0.5, cg 0.5, gg 0.
//   t_L = 2 * 1 = 2; t_C2G = 1 + 0.5 * 10 * 1 = 6; t_G = 1 + 0.5 * 4 * 1 = 3; t_C = 1 + 0.5 * 4 = 3.
//   Eq. 10: tau_G = t_L + 3 t_C2G + t_G = 2 + 18 + 3 = 23; tau_C = 3 * 3 = 9.
//   Eq. 5: launch 2, 4, 6; copy 8, 14, 20; gpu 11, 17, 23.
TEST(ScheinferBlockTime, Case1CopyDominatesEq10) {
  const si::Hardware hw = unit_hw(1, {1, 1}, {1, 1}, {1, 1});
  expect_ends(si::block_time(hw, three(4, 10), {0.5, 0.5, 0}), 6, 20, 23, 9);
}

// Case 1's block with its layer's other launches before it (launch_before 10): the launch stream
// starts at 10, so launch 12, 14, 16; copy 18, 24, 30; gpu 21, 27, 33; the CPU is untouched (9).
// All on the CPU (cc 1) launches nothing, yet the block ends no sooner than the launches before
// it: launch, copy and gpu stay at 10, fin = max(10, 3 * (1 + 4)) = 15; with 100 before, 100.
TEST(ScheinferBlockTime, LaunchesBeforeTheBlockStartItsLaunchStream) {
  const si::Hardware hw = unit_hw(1, {1, 1}, {1, 1}, {1, 1});
  si::Block b = three(4, 10);
  b.launch_before = 10;
  expect_ends(si::block_time(hw, b, {0.5, 0.5, 0}), 16, 30, 33, 9);
  expect_ends(si::block_time(hw, b, {1, 0, 0}), 10, 10, 10, 15);
  b.launch_before = 100;
  expect_ends(si::block_time(hw, b, {1, 0, 0}), 100, 100, 100, 15);
}

// Case 2, first branch (Q1 true, Q2 false: the GPU dominates). Work 4, bytes 4; cc 0.25,
// cg 0.25, gg 0.5; GPU beta 2, copy beta 3, CPU alpha 2 beta 2.
//   t_L = (2 + 1) * 1 = 3; t_C2G = 1 + 0.25 * 4 * 3 = 4; t_G = 2 * 1 + 0.75 * 4 * 2 = 8;
//   t_C = 2 + 0.25 * 4 * 2 = 4. Eq. 11: tau_G = 3 + 4 + 3 * 8 = 31; tau_C = 12.
//   Eq. 5: launch 3, 6, 9; copy 7, 11, 15; gpu 15, 23, 31.
TEST(ScheinferBlockTime, Case2GpuDominatesEq11) {
  const si::Hardware hw = unit_hw(1, {1, 3}, {1, 2}, {2, 2});
  expect_ends(si::block_time(hw, three(4, 4), {0.25, 0.25, 0.5}), 9, 15, 31, 12);
}

// Case 2, second branch (Q1 false, Q3 true): all on the GPU, no copy. Work 4; gg 1.
//   t_L = 1, t_C2G = 0, t_G = 1 + 4 * 1 = 5, t_C = 0 (no alpha_C: r_CC = 0).
//   Eq. 11: tau_G = 1 + 0 + 3 * 5 = 16. Eq. 5: launch 1, 2, 3; copy = launch; gpu 6, 11, 16.
TEST(ScheinferBlockTime, Case2AllOnTheGpuEq11) {
  const si::Hardware hw = unit_hw(1, {1, 1}, {1, 1}, {1, 1});
  expect_ends(si::block_time(hw, three(4, 10), {0, 0, 1}), 3, 3, 16, 0);
}

// Case 3 (Q1, Q3 false: launches dominate). Work 8, bytes 12; cc 0.5, cg 0.25, gg 0.25;
// t_Launch 4, copy alpha 2.
//   t_L = 3 * 4 = 12; t_C2G = 2 + 0.25 * 12 = 5; t_G = 2 * 1 + 0.5 * 8 = 6; t_C = 1 + 0.5 * 8 = 5.
//   Eq. 12: tau_G = 3 * 12 + 5 + 6 = 47; tau_C = 15. Eq. 5: launch 12, 24, 36; copy 17, 29, 41;
//   gpu 23, 35, 47.
TEST(ScheinferBlockTime, Case3LaunchesDominateEq12) {
  const si::Hardware hw = unit_hw(4, {2, 1}, {1, 1}, {1, 1});
  expect_ends(si::block_time(hw, three(8, 12), {0.5, 0.25, 0.25}), 36, 41, 47, 15);
}

// All on the CPU: no launch, copy or GPU term at all (every sgn is 0 but r_CC's).
TEST(ScheinferBlockTime, AllOnTheCpuLaunchesNothing) {
  const si::Hardware hw = unit_hw(1, {1, 1}, {1, 1}, {1, 1});
  expect_ends(si::block_time(hw, three(4, 10), {1, 0, 0}), 0, 0, 0, 15);
}

// LLaMA-2 7B decode MLP on Testbed-A, FP16 (Table I): T = 1, M = 4096, H = 11008, so
// n = 45,088,768 multiply-adds and n_W = 90,177,536 bytes per GEMM.
//   cc 0.5, cg 0.2, gg 0.3: t_L = 3 * 4.4e-5 = 1.32e-4;
//   t_C2G = 3.0e-6 + 0.2 * 90,177,536 * 2.6e-11 = 3.0e-6 + 4.689231872e-4 = 4.719231872e-4;
//   t_G = 2 * 1.0e-7 + 0.5 * 45,088,768 * 3.2e-12 = 2e-7 + 7.21420288e-5 = 7.23420288e-5;
//   t_C = 7.4e-7 + 0.5 * 45,088,768 * 1.6e-11 = 7.4e-7 + 3.60710144e-4 = 3.61450144e-4.
//   Case 1: tau_G = 1.32e-4 + 3 * 4.719231872e-4 + 7.23420288e-5 = 1.6201115904e-3;
//   tau_C = 3 * 3.61450144e-4 = 1.084350432e-3.
//   cc 0.8, gg 0.2: t_L = 4.4e-5, no copy, t_G = 1.0e-7 + 0.2 * 45,088,768 * 3.2e-12 =
//   2.895681152e-5: Case 3, tau_G = 3 * 4.4e-5 + 2.895681152e-5 = 1.6095681152e-4;
//   t_C = 7.4e-7 + 0.8 * 45,088,768 * 1.6e-11 = 5.778762304e-4, tau_C = 1.7336286912e-3.
TEST(ScheinferBlockTime, Llama2_7bDecodeOnTestbedA) {
  si::Hardware hw;
  hw.gpu = {1.0e-7, 3.2e-12};
  hw.cpu = {7.4e-7, 1.6e-11};
  hw.c2g = {3.0e-6, 2.6e-11};
  hw.launch = 4.4e-5;
  const si::Block mlp = dense(1, 4096, 11008, 2);
  const si::StreamEnds a = si::block_time(hw, mlp, {0.5, 0.2, 0.3});
  EXPECT_NEAR(a.launch, 3 * 1.32e-4, 1e-15);
  EXPECT_NEAR(a.copy, 1.32e-4 + 3 * 4.719231872e-4, 1e-15);
  EXPECT_NEAR(a.gpu, 1.6201115904e-3, 1e-15);
  EXPECT_NEAR(a.cpu, 1.084350432e-3, 1e-15);
  EXPECT_NEAR(a.fin, 1.6201115904e-3, 1e-15);
  const si::StreamEnds b = si::block_time(hw, mlp, {0.8, 0, 0.2});
  EXPECT_NEAR(b.gpu, 1.6095681152e-4, 1e-15);
  EXPECT_NEAR(b.cpu, 1.7336286912e-3, 1e-15);
  EXPECT_NEAR(b.fin, 1.7336286912e-3, 1e-15);
}

// GEMMs of unequal sizes (no closed form): all CG, t_Launch 1, copy and GPU at beta 1, alpha 0.
//   t_L = 2 each; (t_C2G, t_G) = (1, 5), (6, 1), (1, 1).
//   launch 2, 4, 6; copy 2 + 1 = 3, max(4, 3) + 6 = 10, max(6, 10) + 1 = 11;
//   gpu 3 + 5 = 8, max(10, 8) + 1 = 11, max(11, 11) + 1 = 12.
TEST(ScheinferBlockTime, UnequalGemmsFollowTheRecurrence) {
  const si::Hardware hw = unit_hw(1, {0, 1}, {0, 1}, {1, 1});
  const si::Block moe{{{5, 1}, {1, 6}, {1, 1}}};
  expect_ends(si::block_time(hw, moe, {0, 1, 0}), 6, 11, 12, 0);
}

// Eq. 15, work 8 (T = 4 tokens: 2 per token), bytes 4, unit fits; cc 0.5, cg 0.25, gg 0.25.
//   n_g = 2: t_L' = (2 + 2 + 1) * 1 = 5; t_C2G' = 2 * 1 + (0.25 + 0.5) * 4 = 5;
//   t_G' = 3 * 1 + [4 * 0.5 + 2 * 0.5] * 2 = 9; t_C' = 1 + (4 - 2) * 0.5 * 2 = 3.
//   Case 2: tau_G = 5 + 5 + 3 * 9 = 37 (launch 15, copy 20); tau_C = 9.
//   n_g = 4 = T: the CPU has nothing left, so no alpha_C: t_C' = 0; t_G' = 3 + [2 + 2] * 2 = 11,
//   tau_G = 5 + 5 + 33 = 43.
TEST(ScheinferBlockTime, PromptSplitEq15) {
  const si::Hardware hw = unit_hw(1, {1, 1}, {1, 1}, {1, 1});
  expect_ends(si::prompt_block_time(hw, three(8, 4), {0.5, 0.25, 0.25}, 2, 4), 15, 20, 37, 9);
  expect_ends(si::prompt_block_time(hw, three(8, 4), {0.5, 0.25, 0.25}, 4, 4), 15, 20, 43, 0);
}

// With n_g = 0 the prompt phase is Eq. 4 itself, bit for bit, whatever T.
TEST(ScheinferBlockTime, PromptWithNoTokensMovedIsBlockTimeBitForBit) {
  std::mt19937 rng(7);
  for (int k = 0; k < 200; ++k) {
    const si::Hardware hw = random_hardware(rng);
    const si::Block b = k % 2 ? random_dense(rng) : random_moe(rng);
    const double cg = std::uniform_real_distribution<double>(0, 1)(rng);
    const double gg = (1 - cg) * std::uniform_real_distribution<double>(0, 1)(rng);
    const si::Rates r{1 - cg - gg, cg, gg};
    const si::StreamEnds a = si::block_time(hw, b, r);
    const si::StreamEnds p = si::prompt_block_time(hw, b, r, 0, 1 + static_cast<int>(rng() % 4096));
    EXPECT_EQ(a.launch, p.launch);
    EXPECT_EQ(a.copy, p.copy);
    EXPECT_EQ(a.gpu, p.gpu);
    EXPECT_EQ(a.cpu, p.cpu);
    EXPECT_EQ(a.fin, p.fin);
  }
}

}  // namespace
