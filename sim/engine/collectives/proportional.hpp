// Capability-proportional collectives (AsymGroup, IEEE Access 2025, sections V-B and V-C). Each
// rank r has a capability w_r (`weights`, W their sum) and holds data in proportion to it, so
// every transfer is sliced by the capabilities at both its ends: "each group calculates the send
// and receive data volumes proportionally based on capability ratios and transmits only the
// necessary data slices directly to each receiving group" (Fig. 4(d): 12 items to ranks of
// capability [1, 1, 2] arrive as [3, 3, 6]; 8 items to [3, 3] as [4, 4]).
//
// Point-to-point: senders P = ranks [0, senders), receivers Q = the rest. Sender i sends
// receiver j  S (w_i / W_P) (w_j / W_Q)  in k chunks on their connection, all pairs at once:
// sender i sends S w_i / W_P in all, receiver j gets S w_j / W_Q. Direct point-to-point is
// this with equal weights.
//
// Reduce-scatter (inside one AsymGroup group, after a linear layer whose every rank holds partial
// sums of the whole output S): rank j ends with the reduced slice S w_j / W. "Each node transmits
// data elements outside its final assigned range to other nodes within the same group": rank i
// sends every other rank j its partial sums of j's slice, S w_j / W, all pairs at once (direct
// reduce-scatter with these slices; with equal weights, direct's own). Rank i sends
// S (W - w_i) / W in all and rank j receives (n-1) S w_j / W.
//
// All-gather among groups (`groups`: rank r is in group groups[r]; groups G_0 .. G_{m-1} form a
// ring in index order, members in rank order; C_t is G_t's capability): group t holds
// V_t = S C_t / W, each member its share w_i / C_t. In m-1 steps, at step s group t forwards the
// part of origin group t-s (mod m), of V = V_{t-s} bytes, to group t+1, sliced on both sides as
// point-to-point is: sender i of G_t sends receiver j of G_{t+1}  V (w_i / C_t) (w_j / C_{t+1}).
// A member forwards chunk c at step s+1 once all of chunk c of step s has reached it; group t
// always sends to group t+1, so its steps follow one another on the same connections. One group:
// nothing moves.
//
// Closed forms (analytic fidelity). A step in which all its transfers run at once takes
//   k L + max(busiest sender's bytes, busiest receiver's bytes) / B
// with L the largest latency and B the smallest bandwidth over the step's (sender, receiver) pairs:
//   point-to-point  k L + S max(max_P w_i / W_P, max_Q w_j / W_Q) / B
//   reduce-scatter  k L + max(max_i S (W - w_i) / W, max_j (n-1) S w_j / W) / B
//                   AsymGroup's Eq. 4 (in bytes) is the send side alone, the least capable rank's
//                   S (W - w_min) / W; the receive side is never smaller ((n-1) w_max >= W - w_min),
//                   so on links as fast in as out the most capable rank is the bottleneck.
//   all-gather      the sum over steps s of the slowest pair of groups t: the point-to-point form
//                   of G_t -> G_{t+1} with V_{t-s} and that pair's own L and B (for one L and B:
//                   Eq. 2, sum_s max_t V_{t-s} max(w_max(G_t) / C_t, w_max(G_{t+1}) / C_{t+1}) / B)
// At flow fidelity, alone on a switch where each rank has one link in and one out of bandwidth B
// (asymgroup-s* with one GPU per node, engine::switch_network), these are exact:
//   reduce-scatter  always: the n-1 flows into rank j have one size, share j's link and end
//                   together, and no rank's outgoing link is ever the tighter one.
//   point-to-point  when the side with more ranks (either, when equal) has equal weights.
//                   Otherwise max-min sharing gives every flow on a link the same rate, the small
//                   slices end first, and the busiest link idles in part while the large slices
//                   are held back at their other end: flow is later (by a quarter in AsymGroup's
//                   Fig. 4(d) example, worked in tests/engine/collectives_asymgroup_test.cpp).
//   all-gather      for k = 1 when every step is, and one chain of forwards meets every step's
//                   slowest pair (groups of one size with equal weights inside each, or one
//                   rank per group: the chain carries the largest part). Where every step is
//                   exact but no chain meets all the slowest pairs, flow (no barrier between
//                   steps) is earlier; with k > 1 the chunks pipeline along the chain (as in a
//                   ring broadcast), and flow is earlier than the closed form, which pays every
//                   step in full (by a third for five groups of one rank and k = 4).
#pragma once

#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// S w_i / sum(w): slices that sum to S (up to rounding), in proportion to the weights.
std::vector<double> proportional_slices(double bytes, const std::vector<double>& weights);

// Point-to-point sliced by `weights` (one per rank), flows and closed form as above.
void lower_point_to_point(Lowering& low, const std::vector<double>& weights);
double point_to_point_analytic(const CollectiveSpec& spec, const Network& net, const std::vector<double>& weights);

// Checks `senders` against the group (CollectiveOptionError).
void check_senders(const CollectiveSpec& spec);

}  // namespace placesim::engine
