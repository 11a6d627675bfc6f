// The communication volumes of the three tensor-parallel placers, in one place: AsymGroup's
// capability-weighted groups (AsymGroup, IEEE Access 2025, Eq. 2-5) and its greedy group search
// (V-C), AutoDDL's symmetric k x (G/k) grid (Eq. 1) and Megatron-LM's 1D all-reduce.
//
// The asymmetric model. Nodes n = 0..N-1 have capabilities c_n > 0 (GPU count x per-GPU
// throughput), C_sys = sum of c_n. A grouping is k disjoint, non-empty groups G_0..G_{k-1} that
// cover the nodes, listed in ring order (group t sends to group t+1 mod k). For a group G:
// C_G = sum of its c_n, c_max(G) and c_min(G) its largest and smallest c_n. The tensor of B bytes
// is split in proportion to capability, so group G holds B_G = B C_G / C_sys, and its busiest
// member sends or receives c_max(G) / C_G of anything the group moves.
//   Eq. 2  Cost_s = max over t of B_{G_{t-s}} * max(c_max(G_t) / C_{G_t}, c_max(G_{t+1}) / C_{G_{t+1}})
//          (step s of the ring all-gather between groups: group t forwards the block that group
//          t-s owns to group t+1; indices mod k)
//   Eq. 3  intergroup = sum of Cost_s over s = 0..k-2        (0 for k = 1)
//   Eq. 4  intragroup = B * max over t of (C_{G_t} - c_min(G_t)) / C_sys
//          (the reduce-scatter inside each group, all groups at once)
//   Eq. 5  total = intergroup + intragroup
// Eq. 5 counts one linear: its input B gathered and its output B scattered. A transformer block's
// linears gather their inputs and scatter their outputs, which differ (GPT: h, h, h, 4h in and 3h,
// h, 4h, h out, so 7 b h gathered and 9 b h scattered per block); since Eq. 2-4 are linear in the
// bytes, that is Eq. 3 of the gathered bytes plus Eq. 4 of the scattered ones (a Payload).
// Volumes are bytes through the busiest node; the steps are (k - 1) for the all-gather plus
// (largest group size - 1) for the reduce-scatter rings, and a time is alpha * steps +
// beta * volume (alpha: latency per step, beta: seconds per byte). The ring order matters (a
// grouping and its reverse can differ); every function here keeps the order it is given.
//
// The symmetric grid (AutoDDL). G equal GPUs in k groups of G/k (k divides G), bh = B:
//   Eq. 1  intergroup = (B/G)(k - 1) (all-gather), intragroup = (B/G)(G/k - 1) (reduce-scatter),
//          steps (k - 1) + (G/k - 1).
// Eq. 5 reduces to it when all c_n = C/G and C_G = C/k (Eq. 6-7): Cost_s = (B/k)(k/G) = B/G.
//
// Megatron-LM. One ring all-reduce of S bytes over G GPUs is a reduce-scatter and an all-gather,
// each moving S (G-1)/G per rank in G-1 steps: 2 (G-1)/G * S in 2 (G-1) steps.
//
// The greedy search (V-C), for a given k:
//   * even start: nodes by capability, largest first (ties: lower index), each into the group
//     of least total capability so far (ties: lower group index). So the j-th largest node
//     opens group j (j < k), and no group is empty.
//   * each step charges every max of Eq. 5 to the groups it involves: Cost_s to the owner
//     t-s, the sender t and the receiver t+1 of its largest term (among equal terms, the lowest
//     t of those asymgroup_terms.hpp's scan meets), the intragroup volume to the group of
//     the largest C_G - c_min(G) (ties: lowest index). A group's contribution is what is charged
//     to it. Groups are tried in decreasing contribution (ties: lower index); the first one
//     with an improving move gives it: of its nodes' moves to every other group (a group never
//     loses its last node), the one leaving the least total (ties: lower node, then lower
//     group). Nodes of equal capability in one group are one candidate (the lowest index).
//   * a move counts as improving when it lowers the total by more than 1e-12 of it, so
//     rounding cannot cycle; the search stops when no group has one (no single-node move lowers
//     the total: a local optimum) or after max_moves moves (`capped`, a safety net).
// Candidate moves are pruned with bounds that cannot reject an improving one (asymgroup_search.cpp;
// their rounding stays far inside the 1e-12), so the result is the same as trying them all.
// The search over k runs this greedy from the even start of every k (or one k) and keeps the
// least total.
#pragma once

#include <optional>
#include <vector>

namespace placesim::scheduler::asymgroup {

using Capabilities = std::vector<double>;        // per node: c_n > 0
using Grouping = std::vector<std::vector<int>>;  // groups in ring order, each its nodes

struct Volume {
  double intergroup = 0;  // Eq. 3: the all-gather between groups
  double intragroup = 0;  // Eq. 4: the reduce-scatter inside groups
  double total = 0;       // Eq. 5
  int steps = 0;
};

struct AllReduceVolume {
  double half = 0;   // the reduce-scatter, and again the all-gather: S (G-1)/G
  double total = 0;  // 2 S (G-1)/G
  int steps = 0;     // 2 (G-1)
};

// The bytes all-gathered between groups (Eq. 2-3) and reduce-scattered inside them (Eq. 4).
struct Payload {
  Payload(double bytes) : gathered(bytes), scattered(bytes) {}  // NOLINT(google-explicit-constructor): Eq. 5's B
  Payload(double gathered_bytes, double scattered_bytes) : gathered(gathered_bytes), scattered(scattered_bytes) {}
  double gathered, scattered;
};

double seconds(const Volume& v, double alpha, double beta);           // alpha steps + beta total
double seconds(const AllReduceVolume& v, double alpha, double beta);  // alpha steps + beta total

// InputError unless every capability is finite and > 0 (and there is at least one node), and
// `groups` partitions the nodes into non-empty groups.
void check_capabilities(const Capabilities& c);
void check_grouping(const Capabilities& c, const Grouping& groups);

// Eq. 2 for s = 0..k-2, of `bytes` (B >= 0, finite; else InputError).
std::vector<double> allgather_step_volumes(const Capabilities& c, const Grouping& groups, double bytes);
// Eq. 3-5: Eq. 3 of the gathered bytes, Eq. 4 of the scattered ones (each finite, >= 0, else
// InputError).
Volume asym_volume(const Capabilities& c, const Grouping& groups, Payload bytes);

// The even start for k groups (header); InputError unless 1 <= k <= N.
Grouping even_groups(const Capabilities& c, int k);

struct GreedyResult {
  Grouping groups;  // same k and ring order as the start, members ascending
  Volume volume;
  int moves = 0;
  bool capped = false;  // stopped by max_moves, perhaps before a local optimum
};
// The greedy from `start` (checked) on the total of asym_volume; max_moves >= 0, and bytes
// gathered > 0 where any are scattered (else InputError).
GreedyResult greedy_groups(const Capabilities& c, const Grouping& start, Payload bytes, int max_moves);

struct SearchOptions {
  int k = 0;                      // 0: every k from 1 to N; else this k only
  Grouping groups;                // non-empty: these groups as given, no search (k must be 0)
  std::optional<int> max_moves;   // per k; none: 10 per node
};
struct KResult {
  int k = 0;
  Volume start;     // the even start (or the given groups)
  Volume greedy;    // after the greedy (the given groups: the same)
  Grouping groups;  // the greedy's groups
  int moves = 0;
  bool capped = false;
};
struct SearchResult {
  int k = 0;  // the best: least greedy total (ties within 1e-12: the smaller k)
  Grouping groups;
  Volume volume;
  std::vector<KResult> per_k;  // ascending k
};
SearchResult search_groups(const Capabilities& c, Payload bytes, const SearchOptions& options = {});

// Eq. 1; InputError unless G >= 1 and k divides G.
Volume symmetric_2d_volume(int gpus, int k, double bytes);
struct Symmetric2d {
  int k = 0;  // least total over the divisors of G (ties: the smaller k)
  Volume volume;
};
Symmetric2d best_symmetric_2d(int gpus, double bytes);

// Megatron's ring all-reduce of `bytes` over G >= 1 GPUs.
AllReduceVolume megatron_all_reduce_volume(int gpus, double bytes);

}  // namespace placesim::scheduler::asymgroup
