// What each op of a transformer decoder graph is to a tensor-parallel placer: which linear
// layers take their input whole and split their output columns (qkv, up, gate, the head), which
// split their input features and leave partial sums (the attention output projection, down),
// and which ops act on whole activations (embedding, norms, residual adds). Roles are read from
// the op types and names the transformer generator gives (models/generators/transformer_ops.cpp:
// `l3.qkv` a matmul, `l3.attn` attention, `l3.add1` an add, ...), so a graph from elsewhere is
// refused with the op that does not fit.
#pragma once

#include <string>
#include <vector>

#include "models/graph.hpp"

namespace placesim::scheduler::tp {

enum class Role {
  Embedding,   // the token (and position) lookup
  Norm,        // layernorm / rmsnorm, including the final norm
  ColumnIn,    // a linear layer whose columns split (qkv, up, gate, lm_head): reads its input whole
  Attention,   // fused attention: splits by heads
  Activation,  // gelu / swiglu between up and down: elementwise over the ffn columns
  RowOut,      // a linear layer whose rows split (attention out, down): partial sums of its output
  Residual,    // the residual add
};
const char* to_string(Role r);

struct DecoderOp {
  int node = -1;
  Role role = Role::Norm;
};

// Every op of `g` with its role, in topological order. InputError naming the first op that is
// not a decoder op of the transformer generator at op granularity (`placer` names who asks).
std::vector<DecoderOp> decoder_roles(const models::Graph& g, const std::string& placer);

// Whether op's parameters are read by it alone, so that a split may partition them (a head tied
// to the embedding's table is not).
bool owns_params(const models::Graph& g, int op);

}  // namespace placesim::scheduler::tp
