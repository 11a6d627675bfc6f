// Shapes of ONNX nodes. Only the matrix products have one so far; their flops agree with
// op_cost.cpp's (2 K N (+ N) = 2 batch m k n (+ batch m n), N = batch m n outputs):
//
//   MatMul  A[..., m, k] x B[..., k, n], both of rank >= 2 (a vector operand: no shape):
//           gemm {batch = outputs / (m n), m, n, k}, weight B when B is a parameter of rank 2
//           (shared over the batch), else none (B an activation, or one weight per batch)
//   Gemm    A[m, k] (transA: [k, m]) x B[k, n] (transB: [n, k]) (+ C): gemm {m, n, k}, weight B
//           when B is a parameter, bias when C is given (a C of [m, n] has the same flops as
//           a bias row; its elements are not the shape's weight)
//
// ONNX bytes stay the importer's own (each tensor in its own element type); a shape here is
// what a plan splits the op along, and its flops are the node's.
#include "models/onnx/op_dims.hpp"

namespace placesim::models::onnx_import {

namespace {

bool is_param(const std::vector<bool>& param, size_t i) { return i < param.size() && param[i]; }

// Zero-sized products (legal in ONNX) get no shape: a shape's dimensions are positive.
OpShape positive(const GemmShape& g) {
  if (g.batch > 0 && g.m > 0 && g.n > 0 && g.k > 0) return g;
  return NoShape{};
}

double dim(const Shape& s, size_t from_end) { return static_cast<double>(s[s.size() - from_end]); }

OpShape matmul(const std::vector<const Shape*>& in, const std::vector<bool>& param, const std::vector<Shape>& out) {
  if (in.size() < 2 || !in[0] || !in[1] || in[0]->size() < 2 || in[1]->size() < 2 || out.empty()) return NoShape{};
  const Shape &a = *in[0], &b = *in[1];
  GemmShape g;
  g.m = dim(a, 2);
  g.k = dim(a, 1);
  g.n = dim(b, 1);
  if (g.m * g.n > 0) g.batch = numel(out[0]) / (g.m * g.n);
  if (is_param(param, 1) && b.size() == 2) g.weight = GemmWeight::B;
  return positive(g);
}

OpShape gemm(const onnx::NodeProto& node, const std::vector<const Shape*>& in, const std::vector<bool>& param,
             const std::vector<Shape>& out) {
  if (in.size() < 2 || !in[0] || !in[1] || in[0]->size() != 2 || out.empty() || out[0].size() != 2) return NoShape{};
  bool trans_a = false;
  for (const auto& attr : node.attribute())
    if (attr.name() == "transA") trans_a = attr.i() != 0;
  GemmShape g;
  g.m = static_cast<double>(out[0][0]);
  g.n = static_cast<double>(out[0][1]);
  g.k = static_cast<double>(trans_a ? (*in[0])[0] : (*in[0])[1]);
  if (is_param(param, 1)) g.weight = GemmWeight::B;
  if (in.size() > 2 && in[2]) g.bias = 1;
  return positive(g);
}

}  // namespace

OpShape op_shape(const onnx::NodeProto& node, const std::vector<const Shape*>& in, const std::vector<bool>& param,
                 const std::vector<Shape>& out) {
  if (!node.domain().empty() && node.domain() != "ai.onnx") return NoShape{};
  if (node.op_type() == "MatMul") return matmul(in, param, out);
  if (node.op_type() == "Gemm") return gemm(node, in, param, out);
  return NoShape{};
}

}  // namespace placesim::models::onnx_import
