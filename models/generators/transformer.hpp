// Dense transformer decoders (GPT-2 large/xl, OpenLLaMA 3B/7B, LLaMA-2 7B/13B/70B).
//
// Prefill processes `seq` tokens per sequence; decode processes one new token per sequence
// against a KV cache of `seq` tokens held on the device of each attention op. Generate is a
// whole generation (models/generation.hpp): a prefill of `seq` tokens, then decode steps until
// `output` tokens are out; it is several graphs, built by transformer_generation(). Parameters
// are separate nodes with edges to the ops that read them.
//
// Dtype: weights are stored in the model dtype; activations and the KV cache stay in the
// compute dtype: fp32 for fp32, fp16/bf16 for themselves, and fp16 for int8/int4, which are
// weight-only quantisation (as in llama.cpp, AWQ, GPTQ). Graph::dtype is the model dtype; the
// cost model picks its peak from it. The work formulas of each op are in transformer_ops.cpp.
#pragma once

#include <string>
#include <vector>

#include "models/generation.hpp"
#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct TransformerArch {
  std::string name;
  int layers, hidden, heads, kv_heads, ffn, vocab;
  bool gated_mlp;    // SwiGLU (LLaMA) vs GELU (GPT-2)
  std::string description;
  int positions = 0;             // rows of a learned position table (GPT-2: 1024); 0 = rotary
  bool biases = false;           // GPT-2: biases on every linear layer and LayerNorm (scale and
                                 // shift); otherwise no biases and RMSNorm (scale only)
  bool tied_embeddings = false;  // lm_head reuses the token embedding table (GPT-2)
};
const std::vector<TransformerArch>& transformer_archs();
// The architecture called `name`; InputError (no location) listing the known ones when absent.
const TransformerArch& find_transformer_arch(const std::string& name);
int head_dim(const TransformerArch& a);  // hidden / heads

enum class Phase { Prefill, Decode, Generate };
enum class Granularity { Op, Layer };

struct TransformerSpec {
  std::string arch = "gpt2-large";
  int batch = 1;
  int seq = 128;
  Phase phase = Phase::Prefill;
  DType dtype = DType::FP16;
  Granularity granularity = Granularity::Op;
  int layers = 0;  // 0: the architecture's own; otherwise truncate (tests, tutorials)
  int output = 1;     // generate: tokens generated, the prefill's included
  int kv_stride = 1;  // generate: simulate every kv_stride-th decode step (models/generation.hpp)
};

// Keys: generator (optional, must be "transformer"), arch, batch, seq, phase (prefill | decode |
// generate), output and kv_stride (generate only; output required), dtype, granularity (op |
// layer), layers; each error located at the offending key or value.
TransformerSpec parse_transformer_spec(const Yaml& model);
// The graph of one step (prefill or decode), validated. InputError (no location) for a spec
// parse_transformer_spec would reject, and for phase generate (several graphs).
Graph generate_transformer(const TransformerSpec& spec);
// The prefill and decode steps of a phase-generate spec (InputError as generate_transformer).
Generation transformer_generation(const TransformerSpec& spec);
const char* to_string(Phase p);        // "prefill", "decode", "generate"
const char* to_string(Granularity g);  // "op", "layer"

}  // namespace placesim::models
