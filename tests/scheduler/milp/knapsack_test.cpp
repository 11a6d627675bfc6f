// 0-1 knapsack against brute force: 100 seeded instances of 8-12 items, every subset
// enumerated, the MILP optimum equal to the best subset within 1e-6.
//   max sum v_i x_i  s.t.  sum w_i x_i <= C,  x_i in {0, 1}   (minimise the negation)
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {
namespace {

struct Knapsack {
  std::vector<double> value, weight;
  double capacity = 0.0;
};

Knapsack random_knapsack(std::mt19937& rng) {
  std::uniform_int_distribution<int> items(8, 12);
  std::uniform_real_distribution<double> value(1.0, 100.0), weight(1.0, 50.0), fill(0.2, 0.7);
  Knapsack k;
  const int n = items(rng);
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    k.value.push_back(value(rng));
    k.weight.push_back(weight(rng));
    total += k.weight.back();
  }
  k.capacity = fill(rng) * total;
  return k;
}

double brute_force(const Knapsack& k) {
  const std::size_t n = k.value.size();
  double best = 0.0;
  for (unsigned mask = 0; mask < (1u << n); ++mask) {
    double v = 0.0, w = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      if (mask & (1u << i)) {
        v += k.value[i];
        w += k.weight[i];
      }
    }
    if (w <= k.capacity) best = std::max(best, v);
  }
  return best;
}

TEST(MilpKnapsack, MatchesBruteForceOnRandomInstances) {
  std::mt19937 rng(20240501);
  for (int instance = 0; instance < 100; ++instance) {
    const Knapsack k = random_knapsack(rng);
    Model m;
    std::vector<Term> weights;
    std::vector<VarId> x;
    for (std::size_t i = 0; i < k.value.size(); ++i) {
      x.push_back(m.add_binary("x" + std::to_string(i), -k.value[i]));
      weights.push_back({x.back(), k.weight[i]});
    }
    m.add_le("capacity", weights, k.capacity);
    const Result r = solve(m);
    ASSERT_EQ(r.status, Status::Optimal) << "instance " << instance << ": " << r.message;
    EXPECT_NEAR(-r.objective, brute_force(k), 1e-6) << "instance " << instance;
    double used = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) used += k.weight[i] * r.value(x[i]);
    EXPECT_LE(used, k.capacity + 1e-6) << "instance " << instance;
  }
}

}  // namespace
}  // namespace placesim::scheduler::milp
