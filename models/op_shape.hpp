// An op's shape: the dimensions its work comes from, so that a plan can split the op along one
// of them (op_slice.hpp) and cost each slice from its sliced shape.
//
// Five kinds, and none (an op whose work is known only as numbers: a layer-granularity block, a
// fused group, an ONNX op without a shape rule):
//
//   gemm         C[batch, m, n] = A[batch, m, k] x B[k, n] (+ bias[n])
//                weight B: B is a parameter shared over the batch (a linear layer: m = tokens
//                per sequence, k = in features, n = out features); weight none: B is an
//                activation [batch, k, n] (attention's Q K^T as a batched matmul)
//                flops   2*batch*m*k*n + bias*batch*m*n
//                weight  k*n + bias*n elements (weight B), else 0
//                bytes   a*batch*m*k + w*weight + a*batch*m*n            (weight B)
//                        a*(batch*m*k + batch*k*n + batch*m*n)            (weight none)
//   attention    fused scores, softmax and context over the full q_len x kv_len rectangle
//                (no causal halving), heads query heads of head_dim, kv_heads key/value heads
//                flops   4*batch*q_len*kv_len*(heads*head_dim) + 5*batch*heads*q_len*kv_len
//                        (Q K^T and P V: 2 each per multiply-accumulate; softmax 5 per score)
//                bytes   a*(batch*q_len*h + 2*batch*kv_len*kv_heads*head_dim + batch*q_len*h),
//                        h = heads*head_dim (Q, K and V read, the context written); no weight
//   elementwise  elements outputs, each from `inputs` input elements at flops_per_element, plus
//                a weight vector read once (a norm's scale and shift)
//                flops   flops_per_element*elements
//                bytes   a*inputs*elements + w*weight_elements + a*elements
//   gather       an embedding lookup: `rows` rows of `width` elements from each of `tables`
//                tables (1: tokens; 2: GPT-2's token and position tables, added), whose rows
//                total `table_rows`; it reads the rows it gathers, not the tables
//                flops   (tables - 1)*rows*width   (each further table's rows added)
//                weight  table_rows*width elements
//                bytes   w*tables*rows*width + a*rows*width
//   lstm         one unfolded cell (models/generators/lstm.hpp): batch rows, input I, hidden H
//                flops   8*batch*H*(I + H) + 21*batch*H
//                weight  4*H*(I + H) + 8*H elements
//                bytes   w*weight + a*(batch*I + 2*batch*H) + a*2*batch*H
//
// w is the bytes of a weight element (the model dtype), a of an activation (activation_dtype).
// These are the transformer and LSTM generators' conventions (a multiply-accumulate is 2 flops;
// every input read once, weights once, the output written once), so a generated op's shape
// reproduces its stored flops, bytes and parameter bytes exactly.
//
// Dimensions are whole numbers in a graph; a slice's share may make them fractional, which the
// formulas (linear in each split dimension) take as they are. `bias` is the share of the bias
// add an op does: 0 or 1 in a graph, s on a row slice (op_slice.hpp).
#pragma once

#include <string>
#include <variant>

#include "models/dtype.hpp"

namespace placesim::models {

struct NoShape {
  bool operator==(const NoShape&) const = default;
};

enum class GemmWeight { None, B };

struct GemmShape {
  double batch = 1, m = 0, n = 0, k = 0;
  GemmWeight weight = GemmWeight::None;
  double bias = 0;
  bool operator==(const GemmShape&) const = default;
};

struct AttentionShape {
  double batch = 1, heads = 0, kv_heads = 0, head_dim = 0, q_len = 0, kv_len = 0;
  bool operator==(const AttentionShape&) const = default;
};

struct ElementwiseShape {
  double elements = 0, flops_per_element = 1, inputs = 1, weight_elements = 0;
  bool operator==(const ElementwiseShape&) const = default;
};

struct GatherShape {
  double rows = 0, width = 0, tables = 1, table_rows = 0;
  bool operator==(const GatherShape&) const = default;
};

struct LstmShape {
  double batch = 1, input = 0, hidden = 0;
  bool operator==(const LstmShape&) const = default;
};

using OpShape = std::variant<NoShape, GemmShape, AttentionShape, ElementwiseShape, GatherShape, LstmShape>;

const char* kind_name(const OpShape& s);  // "none", "gemm", "attention", "elementwise", "gather", "lstm"
bool has_shape(const OpShape& s);         // not NoShape

// The work a shape implies (the formulas above); a shape of kind none asserts.
double shape_flops(const OpShape& s);
double shape_weight_elements(const OpShape& s);
double shape_weight_bytes(const OpShape& s, DType model);
double shape_bytes(const OpShape& s, DType model);

// The bytes of one of its parameters (`param_bytes` in all) an op reads: a gather's rows of that
// table (w*rows*width, at most the table), any other op all of them. What direct host access
// moves (scheduler/lower/lower.hpp) and what SortingHat's and DeepPlan's models price it at.
double param_read_bytes(const OpShape& s, DType model, double param_bytes);

}  // namespace placesim::models
