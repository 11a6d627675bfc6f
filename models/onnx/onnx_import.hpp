// ONNX import (built with PLACESIM_WITH_ONNX): an .onnx file becomes a Graph.
//
// Steps: parse the ModelProto; give every named dynamic dimension of the graph's inputs,
// outputs and value_info its value from `dims`; run ONNX shape inference (strict, with data
// propagation); then one op node per ONNX node, in file order:
//   flops         the formula of its op type (op_cost.hpp), 0 for data-movement ops
//   bytes         read + written: the sizes of all its inputs (weights included) plus all its
//                 outputs (a Shape / Size op reads no data, only metadata)
//   output_bytes  the sizes of its outputs
//   shape         MatMul and Gemm: a gemm from their static shapes (op_dims.hpp); others none
//   type          lower-case ONNX op type, except Gemm -> "matmul", LayerNormalization ->
//                 "layernorm", BatchNormalization -> "batchnorm", LSTM -> "lstm"
// Every initializer read by a node, and the output of every Constant node, becomes a Param node
// (param_bytes = its size) with an edge to each node that reads it. A tensor from one node to
// another becomes an edge whose bytes are the tensor's size (summed per producer-consumer pair).
// Graph inputs are data fed from outside: they are read (bytes) but are not nodes.
// Sizes use each tensor's own element type; Graph::dtype is the element type that holds most
// of the initializer bytes (fp32 when there are none).
//
// An op type without a formula is still imported, costed by the bytes it moves with 0 flops,
// counted in `unsupported` and logged; it is never dropped.
//
// Bad input is an InputError at the file: not an ONNX model; a dynamic input dimension with no
// value ("give it with --dim NAME=VALUE"); a node whose output has no static shape after
// inference, or that shape inference rejects (naming the node and its op type).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "models/graph.hpp"

namespace placesim::models {

struct OnnxImport {
  Graph graph;                             // validated
  std::map<std::string, int> unsupported;  // ONNX op type -> nodes costed by bytes only
};

OnnxImport import_onnx(const std::string& path, const std::map<std::string, std::int64_t>& dims = {});

// The importer is a module of its own (sim/core/module.hpp: ONNX and protobuf are loaded only
// when a model is imported): models/onnx/ is its code, and import_onnx (onnx_calls.cpp) calls
// this.
struct OnnxApi {
  OnnxImport (*import)(const std::string& path, const std::map<std::string, std::int64_t>& dims);
};

}  // namespace placesim::models
