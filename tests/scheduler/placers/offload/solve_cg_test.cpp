// solve_cg (Eq. 6-13) against a brute-force scan of r_CG on seeded random hardware and blocks,
// and the three kinks of Eq. 13 on blocks built so that each coincides with the crossing (the
// only way a kink can win: see solver.hpp).
#include <gtest/gtest.h>

#include <iostream>
#include <map>

#include "random_blocks.hpp"

namespace {

using namespace scheinfer_test;

struct Scan { double r = 0, t = 0; };

// The least t_fin over r_CG = k / 10^4 of [0, 1 - r_gg], k = 0..10^4 (the first, on ties).
Scan scan(const si::Hardware& hw, const si::Block& b, double r_gg) {
  const double top = 1 - r_gg;
  Scan best{0, si::block_time(hw, b, {top, 0, r_gg}).fin};
  for (int k = 1; k <= 10000; ++k) {
    const double r = top * (k / 10000.0);  // exactly top at k = 10^4
    const double t = si::block_time(hw, b, {top - r, r, r_gg}).fin;
    if (t < best.t) best = {r, t};
  }
  return best;
}

// 600 draws: dense and MoE-like blocks, r_GG of 0, 1, in (0.9, 1) (little left to place) and in
// (0, 1). The solver is never above
// the scan's least (it is exact; the scan only samples) and its r_CG is within one step of the
// scan's. Measured: r_CG = 0 wins 256 (120 of them r_GG = 1), r_CG = 1 - r_GG 11, tau_G = tau_C 333.
TEST(ScheinferSolveCg, MatchesABruteForceScanOfRcg) {
  std::map<std::string, int> wins;
  for (std::uint32_t seed = 1; seed <= 600; ++seed) {
    std::mt19937 rng(seed);
    const si::Hardware hw = random_hardware(rng);
    const si::Block b = seed % 2 ? random_dense(rng) : random_moe(rng);
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    const double r_gg = seed % 5 == 0 ? 0 : seed % 5 == 1 ? 1 : seed % 5 == 2 ? 0.9 + 0.1 * u : u;
    const si::CgSolution s = si::solve_cg(hw, b, r_gg);
    const Scan best = scan(hw, b, r_gg);
    EXPECT_LE(s.t_fin, best.t + 1e-12) << "seed " << seed;
    EXPECT_LE(std::abs(s.r_cg - best.r), (1 - r_gg) / 10000) << "seed " << seed << " edge " << s.edge;
    EXPECT_EQ(s.t_fin, si::block_time(hw, b, {1 - r_gg - s.r_cg, s.r_cg, r_gg}).fin) << "seed " << seed;
    ++wins[s.edge];
  }
  for (const auto& [edge, n] : wins) std::cout << edge << ": " << n << "\n";
  EXPECT_GT(wins["r_CG = 0"], 0);
  EXPECT_GT(wins["r_CG = 1 - r_GG"], 0);
  EXPECT_GT(wins["tau_G = tau_C"], 0);
}

// The same scan with launches before each block (launch_before up to twice the block's own
// launches): the crossing argument holds with every path line raised by them (solver.cpp).
TEST(ScheinferSolveCg, WithLaunchesBeforeTheBlockMatchesABruteForceScan) {
  for (std::uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const si::Hardware hw = random_hardware(rng);
    si::Block b = seed % 2 ? random_dense(rng) : random_moe(rng);
    const double u = std::uniform_real_distribution<double>(0, 1)(rng);
    b.launch_before = 2 * u * 3 * hw.launch * static_cast<double>(b.gemms.size());
    const double r_gg = seed % 3 == 0 ? 0 : std::uniform_real_distribution<double>(0, 1)(rng);
    const si::CgSolution s = si::solve_cg(hw, b, r_gg);
    const Scan best = scan(hw, b, r_gg);
    EXPECT_LE(s.t_fin, best.t + 1e-12) << "seed " << seed;
    EXPECT_EQ(s.t_fin, si::block_time(hw, b, {1 - r_gg - s.r_cg, s.r_cg, r_gg}).fin) << "seed " << seed;
  }
}

// r_GG = 1 leaves r_CG no room: 0, at the time of the all-GPU block.
TEST(ScheinferSolveCg, AllOnTheGpuLeavesOnlyRcgZero) {
  std::mt19937 rng(3);
  const si::Hardware hw = random_hardware(rng);
  const si::Block b = random_dense(rng);
  const si::CgSolution s = si::solve_cg(hw, b, 1);
  EXPECT_EQ(s.r_cg, 0);
  EXPECT_EQ(s.edge, "r_CG = 0");
  EXPECT_EQ(s.t_fin, si::block_time(hw, b, {0, 0, 1}).fin);
}

// The three kink cases below share r_GG = 0 and a dense block of work 2, bytes 2, with
// t_C = 1 + (1 - r) * 2 * 2 per GEMM, so tau_C = 15 - 12 r, and each is built so that
// tau_G = 9 = tau_C at r = 1/2 where the kink also lies. At the ends: r = 0 gives 15 (all CPU),
// r = 1 more than 9 (given in each). In 0 < r < 1, t_L = 2 t_Launch.
si::CgSolution solve_kink_case(double launch, si::Fit c2g, si::Fit gpu) {
  si::Hardware hw;
  hw.launch = launch;
  hw.c2g = c2g;
  hw.gpu = gpu;
  hw.cpu = {1, 2};
  return si::solve_cg(hw, dense(1, 1, 2, 1), 0);
}

// t_L = 2, t_C2G = 1 + 2 r, t_G = 2 r: t_L = t_C2G at r = 1/2 (Case 1 beyond it), where
// tau_G = 2 + 2 + 1 + 2 * 2 = 9. r = 1: 2 + 3 + 2 + 2 * 3 = 13.
TEST(ScheinferSolveCg, KinkLaunchEqualsCopyAtTheCrossing) {
  const si::CgSolution s = solve_kink_case(1, {1, 1}, {0, 1});
  EXPECT_EQ(s.r_cg, 0.5);
  EXPECT_EQ(s.t_fin, 9);
  EXPECT_EQ(s.edge, "t_L = t_C2G");
}

// t_L = 1, t_C2G = 1 + 2 r, t_G = 4 r: t_G = t_C2G at r = 1/2, tau_G = 1 + 2 + 2 + 2 * 2 = 9.
// r = 1: 1 + 3 + 4 + 2 * 4 = 16.
TEST(ScheinferSolveCg, KinkGpuEqualsCopyAtTheCrossing) {
  const si::CgSolution s = solve_kink_case(0.5, {1, 1}, {0, 2});
  EXPECT_EQ(s.r_cg, 0.5);
  EXPECT_EQ(s.t_fin, 9);
  EXPECT_EQ(s.edge, "t_G = t_C2G");
}

// t_L = 2, t_C2G = 0.5 + r, t_G = 1 + 2 r: t_L = t_G at r = 1/2, tau_G = 2 + 1 + 2 + 2 * 2 = 9.
// r = 1: 2 + 1.5 + 3 + 2 * 3 = 12.5.
TEST(ScheinferSolveCg, KinkLaunchEqualsGpuAtTheCrossing) {
  const si::CgSolution s = solve_kink_case(1, {0.5, 0.5}, {1, 1});
  EXPECT_EQ(s.r_cg, 0.5);
  EXPECT_EQ(s.t_fin, 9);
  EXPECT_EQ(s.edge, "t_L = t_G");
}

}  // namespace
