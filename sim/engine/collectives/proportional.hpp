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
// Analytic fidelity: these flows alone, solved once per spec (flow_alone_seconds), not an
// alpha-beta closed form. AsymGroup's own closed forms (Eq. 2-4: each step the busiest sender's or
// receiver's bytes over B, steps one after another) are its placer's cost model
// (scheduler/placers/tensor_parallel/asymgroup_cost.hpp); under max-min sharing they are exact only in
// part, which is why the engine does not wait them:
//   reduce-scatter  always exact on a switch where each rank has its own link in and out: the
//                   n-1 flows into rank j have one size, share j's link and end together.
//   point-to-point  exact when the side with more ranks (either, when equal) has equal weights.
//                   Otherwise every flow on a link gets the same rate, the small slices end
//                   first, and the busiest link idles in part while the large slices are held
//                   back at their other end: flow is later (by a quarter in AsymGroup's Fig. 4(d)
//                   example, worked in tests/sim/engine/collectives_asymgroup_test.cpp).
//   all-gather      steps overlap (no barrier; chunks pipeline along the ring of groups), so
//                   flow is earlier than the sum of step maxima where no chain of forwards meets
//                   every step's slowest pair, or k > 1; later where a step is late as above.
// Ranks that share a link (two GPUs of a node behind one NIC) slow each other in flow and so in
// the analytic time, which the closed forms ignore.
#pragma once

#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// S w_i / sum(w): slices that sum to S (up to rounding), in proportion to the weights.
std::vector<double> proportional_slices(double bytes, const std::vector<double>& weights);

// Point-to-point sliced by `weights` (one per rank), flows as above.
void lower_point_to_point(Lowering& low, const std::vector<double>& weights);

// Checks `senders` against the group (CollectiveOptionError).
void check_senders(const CollectiveSpec& spec);

}  // namespace placesim::engine
