// The volumes of scheduler/placers/tensor_parallel/asymgroup_cost.hpp: Eq. 2-5 on a case worked by
// hand, their reduction to the symmetric grid's Eq. 1 (Eq. 6-7), and the closed forms of the
// symmetric grid and of Megatron's all-reduce.
#include <gtest/gtest.h>

#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"

namespace {

namespace ag = placesim::scheduler::asymgroup;

// k groups of G/k consecutive GPUs.
ag::Grouping blocks(int gpus, int k) {
  ag::Grouping g(k);
  for (int n = 0; n < gpus; ++n) g[n / (gpus / k)].push_back(n);
  return g;
}

// Eq. 6-7: G GPUs of capability c (C = G c) in k groups of G/k (C_G = C/k). Every group has
// c_max / C_G = c / (C/k) = k/G and holds B_G = B/k, so every term of Eq. 2 is (B/k)(k/G) = B/G,
// each of the k-1 steps costs B/G and Eq. 3 is (B/G)(k-1); every group has C_G - c_min = C/k - c,
// so Eq. 4 is B (C/k - c)/C = (B/G)(G/k - 1): Eq. 1's all-gather and reduce-scatter. Checked for
// every k dividing G up to 64, with capabilities 1 and 2.5, for consecutive blocks and for the
// even start (which with equal capabilities deals the GPUs round the groups).
TEST(AsymgroupCost, SymmetricSystemsGiveTheGridVolume) {
  const double B = 3e6;
  for (int G = 1; G <= 64; ++G)
    for (double c : {1.0, 2.5})
      for (int k = 1; k <= G; ++k) {
        if (G % k != 0) continue;
        const ag::Volume grid = ag::symmetric_2d_volume(G, k, B);
        EXPECT_NEAR(grid.intergroup, B / G * (k - 1), 1e-9);
        EXPECT_NEAR(grid.intragroup, B / G * (G / k - 1), 1e-9);
        const ag::Capabilities caps(G, c);
        for (const ag::Grouping& groups : {blocks(G, k), ag::even_groups(caps, k)}) {
          for (double step : ag::allgather_step_volumes(caps, groups, B)) EXPECT_NEAR(step, B / G, 1e-12 * B);
          const ag::Volume asym = ag::asym_volume(caps, groups, B);
          EXPECT_NEAR(asym.intergroup, grid.intergroup, 1e-12 * B) << "G " << G << " k " << k;
          EXPECT_NEAR(asym.intragroup, grid.intragroup, 1e-12 * B) << "G " << G << " k " << k;
          EXPECT_NEAR(asym.total, grid.total, 1e-12 * B) << "G " << G << " k " << k;
          EXPECT_EQ(asym.steps, grid.steps);
        }
      }
}

// Capabilities [1, 1, 2, 3, 3], C_sys = 10, B = 10.
//   {0,1,2}, {3,4}: C = 4, 6; c_max = 2, 3; c_min = 1, 3; B_G = 10 * 4/10 = 4, 6;
//   c_max / C = 1/2, 1/2. k = 2, one step: Cost_0 = max(4 * max(1/2, 1/2), 6 * max(1/2, 1/2)) = 3.
//   Eq. 4: 10 * max(4 - 1, 6 - 3) / 10 = 3. Total 6; steps 1 + (3 - 1) = 3.
//   {0,2}, {1}, {3,4}: C = 3, 1, 6; c_max / C = 2/3, 1, 1/2; B_G = 3, 1, 6;
//   m_t = max(r_t, r_t+1) = 1, 1, 2/3.
//   Cost_0 = max_t B_t m_t = max(3, 1, 4) = 4; Cost_1 = max_t B_{t-1} m_t = max(6, 3, 2/3) = 6;
//   Eq. 3 = 10. Eq. 4: 10 * max(3 - 1, 1 - 1, 6 - 3) / 10 = 3. Total 13; steps 2 + 1 = 3.
//   The same groups the other way round the ring, {3,4}, {1}, {0,2}: B_G = 6, 1, 3; r = 1/2, 1, 2/3;
//   m = 1, 1, 2/3; Cost_0 = max(6, 1, 2) = 6; Cost_1 = max(B_2 m_0, B_0 m_1, B_1 m_2) = max(3, 6, 2/3) = 6;
//   Eq. 3 = 12, total 15: the ring order matters.
TEST(AsymgroupCost, HandWorkedAsymmetricCase) {
  const ag::Capabilities c{1, 1, 2, 3, 3};
  {
    const ag::Grouping g{{0, 1, 2}, {3, 4}};
    const std::vector<double> steps = ag::allgather_step_volumes(c, g, 10);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_DOUBLE_EQ(steps[0], 3);
    const ag::Volume v = ag::asym_volume(c, g, 10);
    EXPECT_DOUBLE_EQ(v.intergroup, 3);
    EXPECT_DOUBLE_EQ(v.intragroup, 3);
    EXPECT_DOUBLE_EQ(v.total, 6);
    EXPECT_EQ(v.steps, 3);
  }
  {
    const ag::Grouping g{{0, 2}, {1}, {3, 4}};
    const std::vector<double> steps = ag::allgather_step_volumes(c, g, 10);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_DOUBLE_EQ(steps[0], 4);
    EXPECT_DOUBLE_EQ(steps[1], 6);
    const ag::Volume v = ag::asym_volume(c, g, 10);
    EXPECT_DOUBLE_EQ(v.intergroup, 10);
    EXPECT_DOUBLE_EQ(v.intragroup, 3);
    EXPECT_DOUBLE_EQ(v.total, 13);
    EXPECT_EQ(v.steps, 3);
  }
  {
    const ag::Grouping g{{3, 4}, {1}, {0, 2}};
    const std::vector<double> steps = ag::allgather_step_volumes(c, g, 10);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_DOUBLE_EQ(steps[0], 6);
    EXPECT_DOUBLE_EQ(steps[1], 6);
    EXPECT_DOUBLE_EQ(ag::asym_volume(c, g, 10).total, 15);
  }
  // One group: no all-gather, the reduce-scatter leaves out the weakest node: 10 * (10 - 1) / 10.
  const ag::Volume one = ag::asym_volume(c, {{0, 1, 2, 3, 4}}, 10);
  EXPECT_DOUBLE_EQ(one.intergroup, 0);
  EXPECT_DOUBLE_EQ(one.intragroup, 9);
  EXPECT_EQ(one.steps, 4);
}

// Largest first into the least loaded group (ties: lower group): 3 (node 3) -> group 0, 3 (node 4)
// -> group 1, 2 (node 2) -> group 0 (3 = 3), 1 (node 0) -> group 1 (3 < 5), 1 (node 1) -> group 1
// (4 < 5).
TEST(AsymgroupCost, EvenStartIsLargestFirstIntoTheLeastLoadedGroup) {
  const ag::Capabilities c{1, 1, 2, 3, 3};
  EXPECT_EQ(ag::even_groups(c, 2), ag::Grouping({{2, 3}, {0, 1, 4}}));
  EXPECT_EQ(ag::even_groups(c, 1), ag::Grouping({{0, 1, 2, 3, 4}}));
  EXPECT_EQ(ag::even_groups(c, 5), ag::Grouping({{3}, {4}, {2}, {0}, {1}}));
}

// The grid's best k minimises (k - 1) + (G/k - 1) over the divisors of G, the smaller k on a tie.
TEST(AsymgroupCost, BestSymmetricGridAndMegatronClosedForms) {
  struct Case {
    int G, k, steps;
  };
  for (const Case& x : {Case{1, 1, 0}, Case{2, 1, 1}, Case{8, 2, 4}, Case{12, 3, 5}, Case{16, 4, 6}, Case{7, 1, 6},
                        Case{64, 8, 14}}) {
    const ag::Symmetric2d best = ag::best_symmetric_2d(x.G, 64);
    EXPECT_EQ(best.k, x.k) << "G " << x.G;
    EXPECT_EQ(best.volume.steps, x.steps) << "G " << x.G;
    EXPECT_DOUBLE_EQ(best.volume.total, 64.0 / x.G * x.steps) << "G " << x.G;
  }
  // A ring all-reduce of S over 8 GPUs: each half S 7/8, 14 steps.
  const ag::AllReduceVolume m = ag::megatron_all_reduce_volume(8, 800);
  EXPECT_DOUBLE_EQ(m.half, 700);
  EXPECT_DOUBLE_EQ(m.total, 1400);
  EXPECT_EQ(m.steps, 14);
  EXPECT_DOUBLE_EQ(ag::seconds(m, 1e-6, 1e-9), 14e-6 + 1400e-9);
  EXPECT_DOUBLE_EQ(ag::megatron_all_reduce_volume(1, 800).total, 0);
  const ag::Volume v = ag::symmetric_2d_volume(8, 2, 800);  // 100 * 1 + 100 * 3, 4 steps
  EXPECT_DOUBLE_EQ(v.total, 400);
  EXPECT_DOUBLE_EQ(ag::seconds(v, 1e-6, 1e-9), 4e-6 + 400e-9);
}

}  // namespace
