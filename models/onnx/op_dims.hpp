// The shape (models/op_shape.hpp) of one ONNX node, from its static input and output shapes;
// the rules are in op_dims.cpp.
#pragma once

#include <onnx/onnx_pb.h>
#include <vector>

#include "models/onnx/op_cost.hpp"
#include "models/op_shape.hpp"

namespace placesim::models::onnx_import {

// `in[i]` is the shape of input i (nullptr when absent) and `param[i]` whether it is a
// parameter (an initializer or a Constant's output); `out[i]` the shape of output i. NoShape for
// an op type without a rule or operands the rule does not cover.
OpShape op_shape(const onnx::NodeProto& node, const std::vector<const Shape*>& in, const std::vector<bool>& param,
                 const std::vector<Shape>& out);

}  // namespace placesim::models::onnx_import
