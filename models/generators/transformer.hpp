// Dense transformer decoders (GPT-2 large/xl, OpenLLaMA 3B/7B, LLaMA-2 7B/13B/70B).
//
// Prefill processes `seq` tokens per sequence; decode processes one new token per sequence
// against a KV cache of `seq` tokens held on the device of each attention op. Parameters are
// separate nodes with edges to the ops that read them.
#pragma once

#include <string>
#include <vector>

#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct TransformerArch {
  std::string name;
  int layers, hidden, heads, kv_heads, ffn, vocab;
  bool gated_mlp;    // SwiGLU (LLaMA) vs GELU (GPT-2)
  std::string description;
};
const std::vector<TransformerArch>& transformer_archs();

enum class Phase { Prefill, Decode };
enum class Granularity { Op, Layer };

struct TransformerSpec {
  std::string arch = "gpt2-large";
  int batch = 1;
  int seq = 128;
  Phase phase = Phase::Prefill;
  DType dtype = DType::FP16;
  Granularity granularity = Granularity::Op;
  int layers = 0;  // 0: the architecture's own; otherwise truncate (tests, tutorials)
};

TransformerSpec parse_transformer_spec(const Yaml& model);  // keys: generator, arch, batch, ...
Graph generate_transformer(const TransformerSpec& spec);

}  // namespace placesim::models
