// The greedy group search against the optimum of Eq. 5 over every grouping into k groups, for
// N <= 7 nodes: every partition into k groups, in every ring order (the order changes Eq. 2).
// The greedy can never be below it; how often it reaches it is measured and printed.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <limits>
#include <numeric>

#include "random_caps.hpp"

namespace {

using namespace asymgroup_test;

// Per k (index k - 1): the least total of any grouping into k groups.
std::vector<double> optimum(const ag::Capabilities& c) {
  const int N = static_cast<int>(c.size());
  std::vector<double> best(N, std::numeric_limits<double>::infinity());
  std::vector<int> block(N, 0);  // a restricted growth string: block[i] <= max(block[0..i-1]) + 1
  while (true) {
    const int k = *std::max_element(block.begin(), block.end()) + 1;
    ag::Grouping parts(k);
    for (int n = 0; n < N; ++n) parts[block[n]].push_back(n);
    std::vector<int> order(k);
    std::iota(order.begin(), order.end(), 0);
    do {
      ag::Grouping ring;
      for (int t : order) ring.push_back(parts[t]);
      best[k - 1] = std::min(best[k - 1], ag::asym_volume(c, ring, 1).total);
    } while (std::next_permutation(order.begin(), order.end()));
    // The next restricted growth string, or done.
    int i = N - 1;
    while (i > 0 && block[i] > *std::max_element(block.begin(), block.begin() + i)) block[i--] = 0;
    if (i == 0) break;
    ++block[i];
  }
  return best;
}

// 25 seeded vectors of each kind for each N = 2..7, every k: 675 (vector, k) pairs per kind
// (k = 1 and k = N have a single partition, so only the ring order of k = N is searched there).
// Measured: the greedy reached the optimum in 1157 of 1350 (86%): 631 of 675 (93%) with 1- and
// 2-GPU nodes, 526 of 675 (78%) with non-integer capabilities; its worst excess was 42% of the
// optimum. The floors asserted sit a little below, so a change that makes it worse shows.
TEST(AsymgroupBruteForce, GreedyIsNeverBelowTheOptimumAndMostlyReachesIt) {
  int pairs[2] = {0, 0}, reached[2] = {0, 0};
  double worst = 0;
  for (Kind kind : {Kind::Gpus, Kind::Throughputs})
    for (int N = 2; N <= 7; ++N)
      for (std::uint32_t seed = 1; seed <= 25; ++seed) {
        const ag::Capabilities c = random_caps(N, kind, 100 * N + seed);
        const std::vector<double> best = optimum(c);
        const ag::SearchResult r = ag::search_groups(c, 1);
        for (const ag::KResult& x : r.per_k) {
          const double opt = best[x.k - 1];
          EXPECT_GE(x.greedy.total, opt * (1 - 1e-12)) << "N " << N << " seed " << seed << " k " << x.k;
          ++pairs[static_cast<int>(kind)];
          if (x.greedy.total <= opt * (1 + 1e-9)) ++reached[static_cast<int>(kind)];
          worst = std::max(worst, x.greedy.total / opt - 1);
        }
      }
  EXPECT_GE(reached[0], 620);
  EXPECT_GE(reached[1], 510);
  std::cout << "optimum reached: " << reached[0] << " of " << pairs[0] << " (1/2-GPU), " << reached[1] << " of "
            << pairs[1] << " (non-integer); worst excess " << 100 * worst << "%\n";
}

}  // namespace
