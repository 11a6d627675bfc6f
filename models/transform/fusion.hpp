// Fusion-rule coarsening: MOIRAI's Algorithm 1, GCOF (moirai.md, "Graph Coarsening").
//
// A fusion rule is an ordered list of op types an inference backend fuses into one kernel
// (MOIRAI Table I, from Eigen: [conv, bn], [conv, bn, relu], [conv, bn, add, relu]). Ops stay
// together when they would be fused, so a placer sees fewer, coarser nodes.
//
// Groups are chains of ops. Along each op edge u -> v (u in topological order, its out-edges in
// order) where u is the last op of its group A and v the first of its group B, with
// types(A) ++ types(B) = the candidate list:
//   is_valid_conn   u has exactly one consumer op (a direct connection, or one input of a
//                   multi-input v); an op whose output feeds several ops (multi-output) is
//                   never fused with them
//   is_rule         the list equals a rule            -> fuse(A, B), tag fused
//   is_sub_rule     else it is a contiguous part of a rule (shorter than it)
//                                                      -> bind(A, B), tag bound
// At the end, unbind: a group still tagged bound (it never completed a rule) is released into
// the two groups it was made of, recursively; fused groups and single ops stay.
// Merging along the only out-edge of A cannot create a cycle: every path leaving A takes it.
//
// A fused group becomes one op node: name and type are its members' joined by '+', flops and
// state the sums, output_bytes its last op's, bytes the sum minus twice each internal edge's
// bytes (the intermediate is neither written nor read back: the point of fusing), durations
// the per-device sums over the devices every member lists, layer and location its first op's,
// and no shape (several ops have no one shape to split along); a group of one op is that op.
// Parameters stay as they are; edges between groups keep their bytes and time; a parameter
// read by several members gets one edge.
#pragma once

#include <string>
#include <vector>

#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

using FusionRule = std::vector<std::string>;  // op types in precedence order, at least two

// A YAML list of rules, each a list of op types: [[conv, bn], [conv, bn, relu]]. Errors at the
// offending item.
std::vector<FusionRule> parse_fusion_rules(const Yaml& rules);
const std::vector<FusionRule>& eigen_fusion_rules();     // MOIRAI Table I
const std::vector<FusionRule>& epilogue_fusion_rules();  // GEMM epilogues (transformers)
// A built-in rule set by name ("eigen", "epilogue"); nullptr for another name.
const std::vector<FusionRule>* fusion_rule_set(const std::string& name);

struct Coarsened {
  Graph graph;                // validated
  std::vector<int> group_of;  // original node -> its node in `graph`
};

// `g` must be validated. Coarse nodes are ordered by their first member's index.
Coarsened coarsen(const Graph& g, const std::vector<FusionRule>& rules);

}  // namespace placesim::models
