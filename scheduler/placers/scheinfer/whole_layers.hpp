// The best whole-layer GPU assignment (internal to scheduler/placers/scheinfer): a 0/1 knapsack
// that assign_gg compares with Eq. 14's greedy, which can lose to it.
#pragma once

#include <vector>

namespace placesim::scheduler::scheinfer::detail {

// The layers to put wholly on the GPU: of most total gain (time saved) with total bytes within
// `limit`; layers whose gain is not > 0 never go. Exact: layers of equal bytes are one group,
// taken best gain first, and the counts per group are searched depth first, pruned by the
// fractional-knapsack bound. That is one group for a model of identical layers, and few for
// any real model; a model of many different layer sizes could make it slow (the bound prunes
// most of it in practice). Among assignments of equal gain, the first found is kept.
std::vector<bool> best_whole_layers(const std::vector<double>& bytes, const std::vector<double>& gain, double limit);

}  // namespace placesim::scheduler::scheinfer::detail
