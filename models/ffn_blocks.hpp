// The FFN blocks of a transformer graph, for placers that place experts (ScheInfer slices each
// expert's weights between CPU and GPU): per layer, its MLP (a dense MLP is one expert) or its
// mixture of experts. Found by the op names the transformer generator gives at op granularity
// (models/generators/transformer_ops.cpp):
//
//   dense   l<i>.ln2, l<i>.up, l<i>.gate (SwiGLU only), l<i>.act, l<i>.down, l<i>.add2
//   MoE     l<i>.ln2, l<i>.router, l<i>.topk, per expert with tokens l<i>.expert<e>.{up, gate,
//           act, down}, the shared expert l<i>.shared.{up, gate, act, down} and its gate
//           l<i>.shared_gate (Qwen2-MoE), l<i>.combine, l<i>.add2
//
// Each GEMM's weight is the Param "<op>.w"; an expert no token was routed to has its weights
// (l<i>.expert<e>.up.w, ...) and no ops.
#pragma once

#include <vector>

#include "models/graph.hpp"

namespace placesim::models {

struct FfnExpert {
  int index = -1;            // routed expert number; -1 for a dense MLP and the shared expert
  bool shared = false;       // Qwen2-MoE's shared expert, which every token uses
  double tokens = 0;         // tokens it processes this step; 0: idle (no GEMMs)
  std::vector<int> gemms;    // GEMM op ids in execution order: up, gate (SwiGLU only), down
  std::vector<int> weights;  // their weight Param ids in the same order, an idle expert's too
};

struct FfnBlock {
  int layer = -1;
  int router = -1;                 // the router GEMM; -1 for a dense MLP
  std::vector<FfnExpert> experts;  // dense: the MLP; MoE: routed experts by number, then the shared one
  std::vector<int> others;         // the block's other ops in execution order, from its norm (ln2)
                                   // to its residual add (add2): routing, activations, shared
                                   // gate, combine
};

// One block per layer, by layer. InputError naming the op for a graph the transformer generator
// did not make at op granularity: a layer-granularity node, a missing op or weight, an op that
// is not what its name says (a GEMM that is no matmul).
std::vector<FfnBlock> ffn_blocks(const Graph& g);

}  // namespace placesim::models
