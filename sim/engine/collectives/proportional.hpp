// Point-to-point between a set of senders and a set of receivers, sliced in proportion to
// capability (AsymGroup section V-B): "each group calculates the send and receive data volumes
// proportionally based on capability ratios and transmits only the necessary data slices
// directly to each receiving group" (S = 12 items to ranks of capability [1, 1, 2]: [3, 3, 6]).
#pragma once

#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// S w_i / sum(w): slices that sum to S (up to rounding), in proportion to the weights.
std::vector<double> proportional_slices(double bytes, const std::vector<double>& weights);

// Senders P = ranks [0, senders), receivers Q = the rest. Sender i sends receiver j
//   S (w_i / W_P) (w_j / W_Q)
// in k chunks on their connection, all pairs at once: sender i sends S w_i / W_P in all,
// receiver j gets S w_j / W_Q. Direct point-to-point is this with equal weights.
void lower_point_to_point(Lowering& low, const std::vector<double>& weights);

// k L + max(busiest sender's bytes, busiest receiver's bytes) / B with L, B of the worst pair:
// exact for k = 1 with one sender (or one receiver) whose link is the shared bottleneck (a
// switch), since the link then stays busy until the last slice is through; a bound otherwise.
double point_to_point_analytic(const CollectiveSpec& spec, const Network& net, const std::vector<double>& weights);

// Checks `senders` against the group (InputError).
void check_senders(const CollectiveSpec& spec);

}  // namespace placesim::engine
