// The work of each operator of a transformer forward pass, grouped into blocks (the embedding,
// one block per layer, the head). transformer.cpp turns the blocks into a Graph at op or layer
// granularity; keeping the formulas here means both granularities count the same work.
#pragma once

#include <string>
#include <vector>

#include "models/generators/transformer.hpp"

namespace placesim::models {

struct ParamUse {
  std::string name;  // several ops may read one parameter (GPT-2's tied embedding table)
  double elements;
};

struct OpWork {
  std::string name, type;
  double flops = 0, bytes = 0, output_bytes = 0, state_bytes = 0;
  std::vector<std::string> inputs{};  // ops whose output this op reads
  std::vector<double> input_bytes{};  // what it reads of each input; empty: their whole outputs
                                      // (an expert reads only the rows routed to it)
  std::vector<ParamUse> params{};     // weights it reads
  OpShape shape{};                    // the dimensions its work comes from
};

struct Block {
  std::string name, type;  // "embed" / "embedding", "l<i>" / "transformer_layer", "head" / "lm_head"
  int layer = -1;
  std::vector<OpWork> ops;  // in execution order; the last one produces the block's output
  std::vector<ParamUse> idle_params{};  // weights no op of this step reads (an expert no token
                                        // was routed to): still Param nodes, with no edges
};

// `layers` is the number of layers to build (already resolved from spec.layers).
std::vector<Block> transformer_blocks(const TransformerArch& arch, const TransformerSpec& spec, int layers);

}  // namespace placesim::models
