// Flops of one ONNX node from its attributes and static shapes (the formulas are in op_cost.cpp).
#pragma once

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <optional>
#include <vector>

namespace placesim::models::onnx_import {

using Shape = std::vector<std::int64_t>;

double numel(const Shape& s);  // product of the dims; 1 for a scalar

// `in[i]` is the shape of input i, or nullptr for an absent optional input; `out[i]` of output i.
// nullopt when the op type has no formula (the caller costs it by bytes moved); InputError (no
// location) when an input the formula needs is missing or has too low a rank.
std::optional<double> op_flops(const onnx::NodeProto& node, const std::vector<const Shape*>& in,
                               const std::vector<Shape>& out);

}  // namespace placesim::models::onnx_import
