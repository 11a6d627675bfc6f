// The whole-layer knapsack (scheduler/placers/offload/whole_layers.hpp) on its own, since
// assign_gg returns it only where it beats the greedy: against all 2^L subsets.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "scheduler/placers/offload/whole_layers.hpp"

namespace {

using placesim::scheduler::scheinfer::detail::best_whole_layers;

// 500 draws of 1..14 layers: sizes from a few values (so some are equal) or any, gains of
// either sign, limits anywhere up to the total. The chosen layers fit, take no layer of gain
// <= 0, and gain as much as the best subset.
TEST(ScheinferWholeLayers, MatchesEverySubset) {
  for (std::uint32_t seed = 1; seed <= 500; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    const std::size_t L = 1 + rng() % 14;
    std::vector<double> bytes(L), gain(L);
    double all = 0;
    for (std::size_t j = 0; j < L; ++j) {
      bytes[j] = seed % 2 ? 1 + rng() % 3 : 0.5 + 3 * u(rng);
      gain[j] = u(rng) - 0.2;
      all += bytes[j];
    }
    const double limit = all * u(rng);
    double best = 0;
    for (std::uint32_t mask = 0; mask < (1u << L); ++mask) {
      double b = 0, g = 0;
      for (std::size_t j = 0; j < L; ++j)
        if ((mask >> j) & 1) b += bytes[j], g += gain[j];
      if (b <= limit) best = std::max(best, g);
    }
    const std::vector<bool> on = best_whole_layers(bytes, gain, limit);
    double b = 0, g = 0;
    for (std::size_t j = 0; j < L; ++j)
      if (on[j]) {
        EXPECT_GT(gain[j], 0) << "seed " << seed;
        b += bytes[j], g += gain[j];
      }
    EXPECT_LE(b, limit) << "seed " << seed;
    EXPECT_NEAR(g, best, 1e-12) << "seed " << seed;
  }
}

// 80 identical layers of 3 bytes in 100 bytes: the first 33 of them (ties keep the earlier).
TEST(ScheinferWholeLayers, IdenticalLayersFillTheBudget) {
  const std::vector<bool> on = best_whole_layers(std::vector<double>(80, 3), std::vector<double>(80, 0.5), 100);
  for (std::size_t j = 0; j < 80; ++j) EXPECT_EQ(on[j], j < 33) << j;
}

}  // namespace
