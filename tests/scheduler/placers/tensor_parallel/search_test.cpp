// The greedy group search of scheduler/placers/tensor_parallel/asymgroup_cost.hpp on seeded random
// capabilities: never worse than its even start, a local optimum, each move the best of its
// group (which together check that its pruning skips no move it should make), its options, and
// never above the symmetric grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <limits>
#include <string>

#include "random_caps.hpp"

namespace {

using namespace asymgroup_test;

// Every k of 200 vectors of 1 to 64 nodes, half of 1- and 2-GPU nodes, half with non-integer
// capabilities: the greedy's total is at most the even start's, its groups are k non-empty groups
// covering the nodes, its volume is Eq. 5 of them, and with no move it kept the even start.
// Measured: of the 6540 (vector, k) runs the greedy moved in 1395 (4540 moves in all), lowering
// the even start's total there by 5.0% on average.
TEST(AsymgroupSearch, GreedyIsNeverWorseThanItsEvenStart) {
  int runs = 0, improved = 0, moves = 0;
  double gain = 0;
  for (Kind kind : {Kind::Gpus, Kind::Throughputs})
    for (std::uint32_t seed = 1; seed <= 100; ++seed) {
      const int N = 1 + static_cast<int>(seed * 37 % 64);
      const ag::Capabilities c = random_caps(N, kind, seed);
      const ag::SearchResult r = ag::search_groups(c, 1e6);
      ASSERT_EQ(r.per_k.size(), static_cast<size_t>(N));
      double least = r.per_k.front().greedy.total;
      for (const ag::KResult& x : r.per_k) {
        ++runs;
        ASSERT_EQ(x.groups.size(), static_cast<size_t>(x.k));
        ASSERT_NO_THROW(ag::check_grouping(c, x.groups));
        EXPECT_LE(x.greedy.total, x.start.total) << "seed " << seed << " k " << x.k;
        EXPECT_EQ(x.greedy.total, ag::asym_volume(c, x.groups, 1e6).total);
        EXPECT_FALSE(x.capped);
        if (x.moves == 0) {
          EXPECT_EQ(x.groups, ag::even_groups(c, x.k));
        } else {
          ++improved;
          gain += 1 - x.greedy.total / x.start.total;
        }
        moves += x.moves;
        least = std::min(least, x.greedy.total);
      }
      EXPECT_EQ(r.volume.total, least);
      EXPECT_EQ(r.groups, r.per_k[r.k - 1].groups);
    }
  std::cout << runs << " (vector, k) runs; the greedy moved in " << improved << " (" << moves
            << " moves), lowering the even start's total by " << 100 * gain / std::max(improved, 1)
            << "% on average there\n";
}

// The least total over every move of a node of group a to another group.
double best_move_from(const ag::Capabilities& c, const ag::Grouping& groups, int a, ag::Payload bytes = 1) {
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < groups[a].size(); ++i)
    for (size_t b = 0; b < groups.size(); ++b) {
      if (static_cast<int>(b) == a) continue;
      ag::Grouping moved = groups;
      moved[b].push_back(moved[a][i]);
      moved[a].erase(moved[a].begin() + static_cast<long>(i));
      best = std::min(best, ag::asym_volume(c, moved, bytes).total);
    }
  return best;
}

// No single-node move (that leaves no group empty) lowers the total by more than rounding.
void expect_local_optimum(const ag::Capabilities& c, const ag::KResult& x, const std::string& what,
                          ag::Payload bytes = 1) {
  for (int a = 0; a < x.k; ++a) {
    if (x.groups[a].size() < 2) continue;
    EXPECT_GE(best_move_from(c, x.groups, a, bytes), x.greedy.total * (1 - 1e-9)) << what << " k " << x.k << " from " << a;
  }
}

// Every move of the greedy, tried here by recomputing Eq. 5 for each one: it stops where no
// move improves (on 24 vectors of 2 to 32 nodes, every k, and on 100 and 200 nodes at a few k,
// where the pruning has the most to skip).
TEST(AsymgroupSearch, GreedyStopsAtALocalOptimum) {
  for (Kind kind : {Kind::Gpus, Kind::Throughputs})
    for (std::uint32_t seed = 1; seed <= 12; ++seed) {
      const int N = 2 + static_cast<int>(seed * 7 % 31);
      const ag::Capabilities c = random_caps(N, kind, 1000 + seed);
      for (const ag::KResult& x : ag::search_groups(c, 1).per_k) expect_local_optimum(c, x, "seed " + std::to_string(seed));
    }
  for (Kind kind : {Kind::Gpus, Kind::Throughputs})
    for (int N : {100, 200})
      for (int k : {7, N / 8, N / 3, N / 2, 2 * N / 3}) {
        const ag::Capabilities c = random_caps(N, kind, N);
        ag::SearchOptions one_k;
        one_k.k = k;
        expect_local_optimum(c, ag::search_groups(c, 1, one_k).per_k[0], "N " + std::to_string(N));
      }
}

// Weighing Eq. 4 against Eq. 3 as a GPT block's linears do (7 b h gathered, 9 b h scattered), and
// the other way (9 : 2): the totals are Eq. 3 and Eq. 4 of those bytes, and the greedy still stops
// where no single move lowers that total (its bounds hold for any weight).
TEST(AsymgroupSearch, WeightedGreedyStopsAtALocalOptimumOfItsTotal) {
  for (const ag::Payload bytes : {ag::Payload(7, 9), ag::Payload(9, 2)})
    for (Kind kind : {Kind::Gpus, Kind::Throughputs})
      for (std::uint32_t seed = 1; seed <= 12; ++seed) {
        const int N = 2 + static_cast<int>(seed * 7 % 31);
        const ag::Capabilities c = random_caps(N, kind, 3000 + seed);
        const ag::SearchResult r = ag::search_groups(c, bytes);
        double least = r.per_k.front().greedy.total;
        for (const ag::KResult& x : r.per_k) {
          const ag::Volume one = ag::asym_volume(c, x.groups, 1);
          EXPECT_NEAR(x.greedy.intergroup, bytes.gathered * one.intergroup, 1e-12 * bytes.gathered);
          EXPECT_NEAR(x.greedy.intragroup, bytes.scattered * one.intragroup, 1e-12 * bytes.scattered);
          EXPECT_LE(x.greedy.total, x.start.total);
          expect_local_optimum(c, x, "seed " + std::to_string(seed), bytes);
          least = std::min(least, x.greedy.total);
        }
        EXPECT_EQ(r.volume.total, least);
      }
}

// ...and each move it makes lowers the total by more than 1e-12 of it and is the best move of
// the group it takes the node from (so no bound skipped a better one), replayed one move at a
// time with max_moves on 100 vectors of 3 to 40 nodes, at every k.
TEST(AsymgroupSearch, EachMoveIsTheBestFromItsGroup) {
  int checked = 0;
  for (Kind kind : {Kind::Gpus, Kind::Throughputs})
    for (std::uint32_t seed = 1; seed <= 50; ++seed) {
      const int N = 3 + static_cast<int>(seed * 11 % 38);
      const ag::Capabilities c = random_caps(N, kind, 2000 + seed);
      for (int k = 2; k < N; ++k) {
        const ag::Grouping start = ag::even_groups(c, k);
        ag::GreedyResult before = ag::greedy_groups(c, start, 1, 0);
        for (int moves = 1; before.capped; ++moves) {
          const ag::GreedyResult after = ag::greedy_groups(c, start, 1, moves);
          ASSERT_EQ(after.moves, moves);
          int from = -1;
          for (int t = 0; t < k; ++t)
            if (after.groups[t].size() < before.groups[t].size()) from = t;
          ASSERT_GE(from, 0);
          EXPECT_LT(after.volume.total, before.volume.total * (1 - 1e-12));
          EXPECT_LE(after.volume.total, best_move_from(c, before.groups, from) * (1 + 1e-12))
              << "seed " << seed << " k " << k << " move " << moves;
          before = after;
          ++checked;
        }
      }
    }
  EXPECT_GT(checked, 100);
  std::cout << checked << " moves checked\n";
}

// On N one-GPU nodes every capability is equal; where k divides N the even start is the grid's
// groups (Eq. 6-7), so the best over every k is never above the grid's best. Measured: for
// N = 1..64 it is strictly below (by more than 1e-9) for 32 of them (5, 7, 11, 13, 14, 17, ...,
// 62, every prime among them), equal for the rest.
TEST(AsymgroupSearch, NeverAboveTheSymmetricGridOnOneGpuNodes) {
  std::vector<int> below;
  for (int N = 1; N <= 64; ++N) {
    const ag::Capabilities c(N, 1.0);
    const double asym = ag::search_groups(c, 1e6).volume.total;
    const double grid = ag::best_symmetric_2d(N, 1e6).volume.total;
    EXPECT_LE(asym, grid * (1 + 1e-12)) << "N " << N;
    if (asym < grid * (1 - 1e-9)) below.push_back(N);
  }
  std::cout << "strictly below the grid for N =";
  for (int N : below) std::cout << " " << N;
  std::cout << "\n";
}

TEST(AsymgroupSearch, OptionsFixTheGroupsOrKAndCapTheMoves) {
  const ag::Capabilities c = random_caps(20, Kind::Throughputs, 7);
  const ag::SearchResult all = ag::search_groups(c, 1);

  ag::SearchOptions fixed_k;
  fixed_k.k = 5;
  const ag::SearchResult five = ag::search_groups(c, 1, fixed_k);
  ASSERT_EQ(five.per_k.size(), 1u);
  EXPECT_EQ(five.k, 5);
  EXPECT_EQ(five.groups, all.per_k[4].groups);
  EXPECT_EQ(five.volume.total, all.per_k[4].greedy.total);

  ag::SearchOptions given;
  given.groups = {{3, 1}, {0, 2, 4, 5, 6, 7, 8, 9}, {10, 11, 12, 13, 14, 15, 16, 17, 18, 19}};
  const ag::SearchResult as_given = ag::search_groups(c, 2, given);
  ASSERT_EQ(as_given.per_k.size(), 1u);
  EXPECT_EQ(as_given.k, 3);
  EXPECT_EQ(as_given.groups, given.groups);
  EXPECT_EQ(as_given.volume.total, ag::asym_volume(c, given.groups, 2).total);
  EXPECT_EQ(as_given.per_k[0].moves, 0);

  // A k where the greedy moves: capped at no move, it keeps the even start and says so.
  const auto moved = std::find_if(all.per_k.begin(), all.per_k.end(), [](const ag::KResult& x) { return x.moves > 0; });
  ASSERT_NE(moved, all.per_k.end());
  ag::SearchOptions capped;
  capped.k = moved->k;
  capped.max_moves = 0;
  const ag::SearchResult none = ag::search_groups(c, 1, capped);
  EXPECT_TRUE(none.per_k[0].capped);
  EXPECT_EQ(none.per_k[0].moves, 0);
  EXPECT_EQ(none.groups, ag::even_groups(c, moved->k));
  EXPECT_EQ(none.volume.total, moved->start.total);
  // Capped at exactly the moves it needs, it ends where it would have, not capped.
  capped.max_moves = moved->moves;
  const ag::SearchResult enough = ag::search_groups(c, 1, capped);
  EXPECT_FALSE(enough.per_k[0].capped);
  EXPECT_EQ(enough.groups, moved->groups);
}

}  // namespace
