// An op's shape in a graph file (graph_json.hpp): one key naming its kind, whose map holds the
// dimensions (op_shape.hpp); keys at their defaults may be left out.
//
//   "shape": {"gemm": {"batch": 1, "m": 128, "n": 5120, "k": 1280, "weight": "b", "bias": true}}
//   "shape": {"attention": {"batch": 1, "heads": 32, "kv_heads": 8, "head_dim": 128,
//                           "q_len": 512, "kv_len": 512}}
//   "shape": {"elementwise": {"elements": 655360, "flops_per_element": 8, "inputs": 1,
//                             "weight_elements": 2560}}
//   "shape": {"lstm": {"batch": 1, "input": 256, "hidden": 256}}
//
// Required: gemm m, n, k; attention heads, head_dim, q_len, kv_len; elementwise elements; lstm
// input, hidden. Defaults: batch 1, weight none (B an activation; "b": B is the parameter),
// bias false, kv_heads = heads, flops_per_element 1, inputs 1, weight_elements 0.
// Dimensions are positive integers, kv_heads divides heads, inputs and weight_elements are
// integers >= 0, flops_per_element a number >= 0; every error at the offending key or value.
#pragma once

#include <nlohmann/json.hpp>

#include "models/op_shape.hpp"
#include "sim/core/json_doc.hpp"

namespace placesim::models {

OpShape parse_op_shape(const Json& y);
nlohmann::ordered_json op_shape_to_json(const OpShape& s);  // a NoShape asserts

}  // namespace placesim::models
