// The sliced graph a plan runs: its split ops replaced by their slices (docs/execution.md, "Split ops").
//
// Node layout. Every node of the problem's graph keeps its index. Slice 0 of a split op takes the
// op's index (renamed `op#0`); slices 1.. are appended, split op by split op in index order, each
// followed by the slices 1.. of the parameters it partitions. A parameter a split partitions (a
// column or row split of a linear layer's weight) becomes `param#0`, `param#1`, ... in the same
// way; it must have no other reader, since each slice holds a different part of it.
//
// Slice i of share s along axis A computes models::slice_shape(shape, A, s): its flops, memory
// traffic and parameter bytes are the op's scaled by what the sliced shape gives against the whole
// shape (so a graph whose numbers differ from its shape's formulas keeps its own totals); its
// state (KV cache) is s of the op's; its output is s of the op's, except a row slice's: partial
// sums of the whole output.
//
// Edges. An edge into a split op reaches every slice, carrying the part that slice reads
// (models::Slice::input: the whole, or s of it). An edge out of a split op:
//   * to a consumer split into the same devices with the same shares whose slices read exactly
//     the part the producer's slices make (models::Slice::output == input at each level the
//     producer divides; at a further level of the consumer, the whole input): slice i to slice
//     i, s_i of the bytes: the data stays where it is (Megatron's column- then row-split MLP; a
//     data-parallel replica's norm, copied on its group, into its column-split linear);
//   * joined by a plan collective (one whose `after` holds a slice of the producer and whose
//     `before` holds the consumer or a slice of it): no edge; the collective moves the data and
//     lower() makes the consumer wait for it. Partial sums need a reduce (all-reduce or
//     reduce-scatter);
//   * otherwise, a concatenation: every producer slice to every consumer (slice), s_i of the
//     bytes (times the part the consumer slice reads), moved by the plan's deliveries; with inner
//     replicas, each part from one of its copies (the one on the consumer's device, else the
//     first). Partial sums cannot be concatenated: that is an error naming both ops.
// Fixed-time edges keep their time.
#pragma once

#include <map>
#include <vector>

#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

// The sliced graph's nodes, without edges: enough to name a plan's tasks while it is parsed.
// Assumes the splits passed check_split().
models::Graph slice_nodes(const models::Graph& g, const std::map<int, PlanSplit>& splits);

// The sliced graph, validated. InputError naming the ops for a consumer of partial sums that no
// reduce joins, a collective that joins partial sums without reducing them, or a partitioned
// parameter with another reader. The plan's collectives index this graph (slice_nodes' layout).
models::Graph slice_graph(const models::Graph& g, const Plan& plan);

// The problem with the plan's sliced graph in place of its own (p itself when nothing is split).
Problem sliced_problem(const Problem& p, const Plan& plan);

// Indices in the sliced graph of every split op's slices and every partitioned parameter's, slice
// 0 first (the node's own index). Assumes the splits passed check_split().
std::map<int, std::vector<int>> slice_ids(const models::Graph& g, const std::map<int, PlanSplit>& splits);

// slice_ids turned around: per node of the sliced graph, the node of `g` it is a slice of (any
// other node: itself).
std::vector<int> original_nodes(const models::Graph& g, const std::map<int, PlanSplit>& splits);

// The sliced graph's ops in an order that puts every op after its inputs and after the `after`
// ops of any collective it comes `before` (the order build_plan needs to lay out a plan whose
// joins are collectives), the slices of one op together where nothing stands between them
// (`slices`: slice_ids of the split). InputError when the collectives make a cycle.
std::vector<int> plan_order(const models::Graph& sliced, const std::vector<PlanCollective>& collectives,
                            const std::map<int, std::vector<int>>& slices);

}  // namespace placesim::scheduler
