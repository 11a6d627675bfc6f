// Graph files (JSON): read with locations for every error, written back losslessly.
//
//   {"name": "g", "dtype": "fp16",
//    "nodes": [{"name": "a", "type": "matmul", "flops": 1e9, "bytes": 4e6, "output_bytes": 2e6},
//              {"name": "w", "param_bytes": 8e6},
//              {"name": "b", "durations": {"gpu0": 0.002, "cpu0": 0.01}}],
//    "edges": [{"src": "w", "dst": "a"}, {"src": "a", "dst": "b", "bytes": 2e6},
//              {"src": "a", "dst": "b", "time": 0.001}]}
//
// A node with "param_bytes" is a parameter (keys: name, param_bytes, layer); an op node may also
// carry "state_bytes" (memory it holds for the whole run, e.g. a KV cache), "layer" and "shape"
// (op_shape_json.hpp: the dimensions its work comes from, e.g. {"gemm": {"m": 128, "n": 5120,
// "k": 1280, "weight": "b"}}). With a shape, "flops" may be left out and is then the shape's;
// given, it must agree with the shape's to 1e-9 relative. bytes are never derived (they depend
// on the conventions of whatever made the graph). An edge
// without "bytes" from a parameter carries its size, and from an op carries the op's
// output_bytes. Sizes accept units ("4MB", "1GiB"), durations and times accept "10ms".
// Defaults: name = the file's stem, dtype fp32, type "op", every quantity 0, layer -1.
// Unknown keys, missing nodes, duplicates, negative quantities, bad shapes and cycles are
// InputErrors at their file:line:column.
#pragma once

#include <string>

#include "models/graph.hpp"
#include "sim/core/json_doc.hpp"

namespace placesim::models {

Graph load_graph_json(const std::string& path);
Graph parse_graph(const Json& doc);
std::string graph_to_json(const Graph& g);  // pretty JSON; load(save(g)) == g

}  // namespace placesim::models
