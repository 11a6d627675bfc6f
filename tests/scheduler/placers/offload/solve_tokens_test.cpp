// solve_tokens (section IV-B, Eq. 15) against every integer n_g in [0, T], T = 1024, on seeded
// random hardware, prompt blocks and generation-phase rates.
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "random_blocks.hpp"

namespace {

using namespace scheinfer_test;

// Rates with zeros as often as not: an empty slice changes which sgn terms of Eq. 15 are on.
si::Rates random_rates(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  const double cg = rng() % 3 == 0 ? 0 : u(rng);
  const double gg = rng() % 3 == 0 ? 0 : (1 - cg) * u(rng);
  return {1 - cg - gg, cg, gg};
}

// 300 draws, the prompt block's work for T = 1024 tokens (dense and MoE-like blocks scaled to
// 1024 tokens). The solver's n_g is the first least of the full scan, and its t_fin that least,
// exactly. Measured: n_g = 0 wins 87, tau_G = tau_C 213 (n_g = T needs the CPU's alpha to
// outweigh the GPU doing all of CC's work: the next test).
TEST(ScheinferSolveTokens, MatchesEveryIntegerNg) {
  const int T = 1024;
  std::map<std::string, int> wins;
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const si::Hardware hw = random_hardware(rng);
    si::Block b = seed % 2 ? random_dense(rng) : random_moe(rng);
    for (si::Gemm& g : b.gemms) g.work *= T;
    const si::Rates r = random_rates(rng);
    int best_n = 0;
    double best_t = si::prompt_block_time(hw, b, r, 0, T).fin;
    for (int n = 1; n <= T; ++n) {
      const double t = si::prompt_block_time(hw, b, r, n, T).fin;
      if (t < best_t) best_t = t, best_n = n;
    }
    const si::PromptSolution s = si::solve_tokens(hw, b, r, T);
    EXPECT_EQ(s.n_g, best_n) << "seed " << seed << " edge " << s.edge;
    EXPECT_EQ(s.t_fin, best_t) << "seed " << seed;
    ++wins[s.edge];
  }
  for (const auto& [edge, n] : wins) std::cout << edge << ": " << n << "\n";
  EXPECT_GT(wins["n_g = 0"], 0);
  EXPECT_GT(wins["tau_G = tau_C"], 0);
}

// All on the CPU (cc 1), T = 4 tokens, work 8 (2 per token), bytes 4; t_Launch 1, copy and GPU
// at alpha 1 beta 1, CPU at alpha 10 beta 1. For 0 < n_g: t_L' = 2, t_C2G' = 1 + 4 = 5,
// t_G' = 1 + 2 n_g, t_C' = 10 + 2 (4 - n_g) while n_g < 4.
//   n_g = 1: tau_G = 2 + 5 + 3 + 2 * 5 = 20, tau_C = 3 * 16 = 48;  n_g = 2: 22, 42;
//   n_g = 3: tau_G = 2 + 5 + 3 * 7 = 28, tau_C = 36;  n_g = 0: tau_C = 3 * 18 = 54;
//   n_g = 4: no CPU work, no alpha_C: tau_G = 2 + 5 + 3 * 9 = 34, the least.
TEST(ScheinferSolveTokens, DroppingTheCpuAlphaMakesAllTokensWin) {
  si::Hardware hw;
  hw.launch = 1;
  hw.c2g = {1, 1};
  hw.gpu = {1, 1};
  hw.cpu = {10, 1};
  const si::PromptSolution s = si::solve_tokens(hw, dense(1, 4, 2, 0.5), {1, 0, 0}, 4);
  EXPECT_EQ(s.n_g, 4);
  EXPECT_EQ(s.t_fin, 34);
  EXPECT_EQ(s.edge, "n_g = T");
}

// No CC slice: no token has anywhere to move, every n_g costs the same, and the least is n_g = 0.
TEST(ScheinferSolveTokens, NoCpuSliceMovesNoToken) {
  std::mt19937 rng(11);
  const si::Hardware hw = random_hardware(rng);
  const si::Block b = random_dense(rng);
  const si::PromptSolution s = si::solve_tokens(hw, b, {0, 0.5, 0.5}, 64);
  EXPECT_EQ(s.n_g, 0);
  EXPECT_EQ(s.edge, "n_g = 0");
  EXPECT_EQ(s.t_fin, si::block_time(hw, b, {0, 0.5, 0.5}).fin);
}

}  // namespace
