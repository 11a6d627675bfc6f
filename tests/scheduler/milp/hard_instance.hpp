// A seeded multi-dimensional knapsack hard enough that CBC branches (tens of nodes and about a
// second at 15 items x 3 rows, tens of seconds at 40 x 5), for the tests of limits, warm starts
// and reproducibility. Values correlate with weights, which defeats CBC's cuts and heuristics.
#pragma once

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "scheduler/milp/model.hpp"

namespace placesim::scheduler::milp::testing {

struct HardKnapsack {
  Model model;
  std::vector<VarId> x;
  std::vector<std::vector<double>> weight;  // [dimension][item]
  std::vector<double> capacity;

  // Greedy by value per total weight: a feasible warm start that is rarely optimal.
  std::vector<double> greedy() const;
};

inline HardKnapsack hard_knapsack(int items, int dims, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> weight(10.0, 100.0), noise(0.0, 10.0);
  HardKnapsack k;
  k.weight.assign(static_cast<std::size_t>(dims), {});
  std::vector<double> value(static_cast<std::size_t>(items), 0.0);
  for (auto& w : k.weight) {
    for (int i = 0; i < items; ++i) {
      w.push_back(weight(rng));
      value[static_cast<std::size_t>(i)] += w.back() / dims;
    }
  }
  for (int i = 0; i < items; ++i) {
    k.x.push_back(k.model.add_binary("x" + std::to_string(i), -(value[static_cast<std::size_t>(i)] + noise(rng))));
  }
  for (int d = 0; d < dims; ++d) {
    std::vector<Term> row;
    double total = 0.0;
    for (int i = 0; i < items; ++i) {
      row.push_back({k.x[static_cast<std::size_t>(i)], k.weight[static_cast<std::size_t>(d)][static_cast<std::size_t>(i)]});
      total += row.back().coef;
    }
    k.capacity.push_back(0.5 * total);
    k.model.add_le("cap" + std::to_string(d), row, k.capacity.back());
  }
  return k;
}

inline std::vector<double> HardKnapsack::greedy() const {
  const std::size_t n = x.size();
  std::vector<std::size_t> order(n);
  std::vector<double> ratio(n);
  for (std::size_t i = 0; i < n; ++i) {
    double w = 0.0;
    for (const auto& dim : weight) w += dim[i];
    ratio[i] = -model.var(x[i]).objective / w;
    order[i] = i;
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ratio[a] > ratio[b]; });
  std::vector<double> used(weight.size(), 0.0), pick(n, 0.0);
  for (const std::size_t i : order) {
    bool fits = true;
    for (std::size_t d = 0; d < weight.size(); ++d) fits = fits && used[d] + weight[d][i] <= capacity[d];
    if (!fits) continue;
    for (std::size_t d = 0; d < weight.size(); ++d) used[d] += weight[d][i];
    pick[i] = 1.0;
  }
  return pick;
}

}  // namespace placesim::scheduler::milp::testing
