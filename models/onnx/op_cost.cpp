// Flops per ONNX op type. N = elements of the (first) output, unless said otherwise.
//
//   MatMul            2 K N, K = the shared (last) dim of A
//   Gemm              2 K N (+ N when C is given), K = A's inner dim (transA respected)
//   Conv              2 N (C_in / group) prod(kernel) (+ N with a bias)
//   MaxPool, AveragePool            N prod(kernel_shape)
//   GlobalAveragePool, GlobalMaxPool, Reduce*   elements of the input
//   element-wise ops (Add, Mul, Relu, Tanh, Where, ...)   N (a transcendental counts as 1)
//   Softmax, LogSoftmax   5 N (max, subtract, exp, sum, divide)
//   LayerNormalization    8 N (mean, subtract, square, variance sum, rsqrt, normalise, scale, shift)
//   BatchNormalization    2 N (inference: folded into one scale and one shift)
//   LSTM              D T lstm_cell_flops(B, I, H) (models/generators/lstm.hpp), from
//                     X [T, B, I], hidden_size H, D directions; peepholes are not counted
//   data movement (Reshape, Transpose, Concat, Gather, Slice, Cast, ...)   0
#include "models/onnx/op_cost.hpp"

#include <set>
#include <string>

#include "models/generators/lstm.hpp"
#include "sim/core/error.hpp"

namespace placesim::models::onnx_import {

double numel(const Shape& s) {
  double n = 1;
  for (auto d : s) n *= static_cast<double>(d);
  return n;
}

namespace {

const std::set<std::string>& elementwise() {
  static const std::set<std::string> ops = {
      "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Mean", "Sum", "Mod", "Neg", "Abs", "Reciprocal",
      "Sqrt", "Exp", "Log", "Erf", "Relu", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Sigmoid",
      "HardSigmoid", "HardSwish", "Softplus", "Softsign", "Tanh", "Sin", "Cos", "Tan", "Clip", "Floor",
      "Ceil", "Round", "Sign", "Where", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Not",
      "And", "Or", "Xor", "IsNaN", "IsInf", "ThresholdedRelu"};
  return ops;
}

const std::set<std::string>& data_movement() {
  static const std::set<std::string> ops = {
      "Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze", "Concat", "Split", "Slice", "Gather",
      "GatherElements", "GatherND", "Identity", "Cast", "CastLike", "Expand", "Tile", "Pad", "Shape", "Size",
      "Dropout", "ConstantOfShape", "Range", "DepthToSpace", "SpaceToDepth"};
  return ops;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const char* name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

std::int64_t int_attribute(const onnx::NodeProto& n, const char* name, std::int64_t def) {
  const auto* a = attribute(n, name);
  return a ? a->i() : def;
}

double kernel_elements(const onnx::NodeProto& n) {
  const auto* a = attribute(n, "kernel_shape");
  double k = 1;
  if (a)
    for (auto d : a->ints()) k *= static_cast<double>(d);
  return k;
}

bool present(const std::vector<const Shape*>& in, size_t i) { return i < in.size() && in[i] != nullptr; }

// Input i, which the op requires; InputError (no location) when the node lacks it.
const Shape& input(const std::vector<const Shape*>& in, size_t i, size_t min_rank) {
  if (!present(in, i)) throw InputError("required input " + std::to_string(i) + " is missing");
  if (in[i]->size() < min_rank)
    throw InputError("input " + std::to_string(i) + " has rank " + std::to_string(in[i]->size()) + ", expected >= " +
                     std::to_string(min_rank));
  return *in[i];
}

}  // namespace

std::optional<double> op_flops(const onnx::NodeProto& node, const std::vector<const Shape*>& in,
                               const std::vector<Shape>& out) {
  const std::string& op = node.op_type();
  const double n = out.empty() ? 0 : numel(out[0]);
  if (node.domain() != "" && node.domain() != "ai.onnx") return std::nullopt;
  if (elementwise().count(op)) return n;
  if (data_movement().count(op)) return 0.0;
  if (op == "MatMul") return 2 * static_cast<double>(input(in, 0, 1).back()) * n;
  if (op == "Gemm") {
    const Shape& a = input(in, 0, 2);
    const double k = static_cast<double>(int_attribute(node, "transA", 0) ? a[0] : a[1]);
    return 2 * k * n + (present(in, 2) ? n : 0);
  }
  if (op == "Conv") {
    const Shape& w = input(in, 1, 2);  // W: [M, C_in / group, k...]
    double k = 1;
    for (size_t i = 2; i < w.size(); ++i) k *= static_cast<double>(w[i]);
    const double c_in = static_cast<double>(w[1]);
    return 2 * n * c_in * k + (present(in, 2) ? n : 0);
  }
  if (op == "MaxPool" || op == "AveragePool") return n * kernel_elements(node);
  if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op.rfind("Reduce", 0) == 0)
    return numel(input(in, 0, 0));
  if (op == "Softmax" || op == "LogSoftmax") return 5 * n;
  if (op == "LayerNormalization") return 8 * n;
  if (op == "BatchNormalization") return 2 * n;
  if (op == "LSTM") {
    const Shape& x = input(in, 0, 3);  // [T, B, I], or [B, T, I] with layout 1
    const bool batch_first = int_attribute(node, "layout", 0) == 1;
    const double t = static_cast<double>(batch_first ? x[1] : x[0]), b = static_cast<double>(batch_first ? x[0] : x[1]);
    const double dirs = static_cast<double>(input(in, 1, 3)[0]);  // W: [D, 4H, I]
    const double h = static_cast<double>(int_attribute(node, "hidden_size", input(in, 2, 3)[2]));  // R: [D, 4H, H]
    return dirs * t * lstm_cell_flops(b, static_cast<double>(x[2]), h);
  }
  return std::nullopt;
}

}  // namespace placesim::models::onnx_import
