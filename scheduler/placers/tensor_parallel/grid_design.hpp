// 2D tensor parallelism on a grid of groups (AutoDDL's symmetric k x (G/k) grid, and AsymGroup's
// capability-weighted groups; AsymGroup, IEEE Access 2025, sections II-D and V-B):
//   * every linear layer is split in two dimensions: its columns between the k groups, its rows
//     within a group; the slice of member n of group t is a GEMM of rows share w_n / W_t and
//     columns share W_t / W (w_n the member's weight, W_t its group's, W the total);
//   * before each linear, an all-gather brings each member the input rows it multiplies;
//     after it, a reduce-scatter inside each group sums the partial outputs and leaves member n
//     w_n / W of the output features;
//   * every other op works on those shards: norms, adds and the activation split by columns,
//     attention by heads, each member w_n / W (norm statistics span the row and are not joined:
//     a small all-reduce the model leaves out); the embedding is replicated; a head that shares
//     the embedding's table is replicated after an all-gather of the whole final norm.
// Symmetric (AutoDDL): the all-gather of row position r runs among the r-th members of every
// group (a ring of k ranks, S = a N K k/G gathered, each bringing its 1/G), so groups have
// equal sizes; the reduce-scatter is a ring inside each group (S = the group's partial output,
// W_t / W of it). Capability (AsymGroup): groups of any size; the all-gather is one
// `proportional` collective over every member with its group and weight (the ring between
// groups, each step sliced by capability on both sides, S = the whole input a N K), and the
// reduce-scatter is `proportional` inside each group with the members' weights.
// Per-linear volume (scheduler/problem.hpp LinearVolume): a linear's all-gather and reduce-scatter
// both carry the narrower of its input and output, the block's activation b h (QKV's 3h output
// and the MLP's 4h activation count as h), as Eq. 1 and Eq. 5 count one linear.
#pragma once

#include <vector>

#include "scheduler/placers/tensor_parallel/decoder_roles.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"

namespace placesim::scheduler::tp {

struct Grid {
  std::vector<std::vector<int>> groups;     // devices of each group, in rank order (symmetric: equal sizes)
  std::vector<std::vector<double>> weight;  // per group, per member: its weight (> 0)
  bool capability = false;                  // AsymGroup's proportional collectives (else rings)
  bool per_linear = false;                  // LinearVolume::PerLinear: each linear's collectives carry b h
};

TpDesign grid_design(const models::Graph& g, const std::vector<DecoderOp>& ops, const Grid& grid);

}  // namespace placesim::scheduler::tp
