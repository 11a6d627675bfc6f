// The best whole-layer GPU assignment (internal to scheduler/placers/offload): a 0/1 knapsack
// that assign_gg compares with Eq. 14's greedy, which can lose to it.
#pragma once

#include <vector>

namespace placesim::scheduler::scheinfer::detail {

// The layers to put wholly on the GPU: of most total gain (time saved) with total bytes within
// `limit`; layers whose gain is not > 0 never go. Exact, by the Pareto frontier of (bytes, gain)
// over the layers so far (Nemhauser-Ullmann): a model of identical layers keeps one point per
// count of layers, and real models have few layer sizes; many different sizes of nearly equal
// gain per byte (the knapsack's hard case) can grow the frontier large. Among assignments of
// equal gain the one of fewer bytes is kept, and of equal bytes too the one without the later
// layer.
std::vector<bool> best_whole_layers(const std::vector<double>& bytes, const std::vector<double>& gain, double limit);

}  // namespace placesim::scheduler::scheinfer::detail
