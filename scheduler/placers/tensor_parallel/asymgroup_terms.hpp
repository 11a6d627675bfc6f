// The terms of Eq. 2 (asymgroup_cost.hpp): one scan for the volume and the greedy search alike.
#pragma once

#include <vector>

namespace placesim::scheduler::asymgroup::detail {

struct Term {
  double value = 0;
  int t = 0;  // the sending group
};

// With share[g] = C_g / C_sys and m[t] = max(c_max(G_t) / C_{G_t}, c_max(G_{t+1}) / C_{G_{t+1}}),
// the w = min(width, k) largest terms share[(t-s) mod k] * m[t] of every step s = 0..k-2, largest
// first (equal values: lower t first, among those the scan met), flat: step s at [s w, (s+1) w).
// Each step walks the senders by decreasing m and the owners by decreasing share side by side,
// and stops once the product of the two frontiers cannot beat its w-th largest (a threshold
// algorithm: a term met in neither list is at most that product), so balanced groups cost
// about k log k rather than k^2.
std::vector<Term> largest_terms(const std::vector<double>& share, const std::vector<double>& m, int width);

}  // namespace placesim::scheduler::asymgroup::detail
