// Transformer decoders: dense (GPT-2, GPT-3, MT-NLG, OpenLLaMA, LLaMA-2, Qwen2) and
// mixture-of-experts (Mixtral, Qwen2-MoE, Phi-3.5-MoE).
//
// Prefill processes `seq` tokens per sequence; decode processes one new token per sequence
// against a KV cache of `seq` tokens held on the device of each attention op. Generate is a
// whole generation (models/generation.hpp): a prefill of `seq` tokens, then decode steps until
// `output` tokens are out; it is several graphs, built by transformer_generation(). Parameters
// are separate nodes with edges to the ops that read them.
//
// A mixture-of-experts layer replaces the MLP by a router, `experts` expert MLPs of which each
// token uses `top_k`, and a combine (transformer_ops.cpp). Which expert gets how many tokens is
// the expert load: sampled from the scenario's seed or given (transformer_moe.hpp). An expert no
// token is routed to runs no op, but its weights are still Param nodes (no op reads them).
//
// Dtype: weights are stored in the model dtype; activations and the KV cache stay in the
// compute dtype: fp32 for fp32, fp16/bf16 for themselves, and fp16 for int8/int4, which are
// weight-only quantisation (as in llama.cpp, AWQ, GPTQ). Graph::dtype is the model dtype; the
// cost model picks its peak from it. The work formulas of each op are in transformer_ops.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/generation.hpp"
#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

// Which parameters of a decoder carry a bias, and its norm. The configs say it as
// attention_bias / lm_head_bias (Hugging Face) or in the code (GPT-2: every linear).
struct Biases {
  bool layernorm = false;  // LayerNorm (scale and shift), else RMSNorm (scale only)
  bool qkv = false;        // on the q, k and v projections (GPT-2, Qwen2, Phi-3.5-MoE)
  bool out = false;        // on the attention output projection (GPT-2, Phi-3.5-MoE)
  bool mlp = false;        // on the MLP's linears (GPT-2; no MoE expert here has them)
  bool lm_head = false;    // on the lm_head (Phi-3.5-MoE)
};
inline constexpr Biases kGpt2Biases{.layernorm = true, .qkv = true, .out = true, .mlp = true};

// Mixture of experts: every layer's MLP is `experts` expert MLPs of intermediate size ffn, of
// which each token uses top_k, picked by a router (a linear layer hidden -> experts).
struct MoeArch {
  int experts = 0;     // 0: a dense MLP
  int top_k = 0;
  int shared_ffn = 0;  // Qwen2-MoE: intermediate size of a shared expert every token uses, whose
                       // output a sigmoid gate (a linear layer hidden -> 1) scales; 0: none
};

struct TransformerArch {
  std::string name;
  int layers, hidden, heads, kv_heads, ffn, vocab;  // ffn: each expert's, for MoE
  bool gated_mlp;    // SwiGLU (LLaMA) vs GELU (GPT-2)
  std::string description;
  int positions = 0;             // rows of a learned position table (GPT-2: 1024); 0 = rotary
  Biases biases{};
  bool tied_embeddings = false;  // lm_head reuses the token embedding table (GPT-2)
  MoeArch moe{};
};
const std::vector<TransformerArch>& transformer_archs();
// The architecture called `name`; InputError (no location) listing the known ones when absent.
const TransformerArch& find_transformer_arch(const std::string& name);
int head_dim(const TransformerArch& a);  // hidden / heads
bool is_moe(const TransformerArch& a);   // experts > 0

enum class Phase { Prefill, Decode, Generate };
enum class Granularity { Op, Layer };

struct TransformerSpec {
  std::string arch = "gpt2-large";
  // From `config:` (a Hugging Face config.json, hf_config.hpp): used instead of the built-in `arch`.
  std::optional<TransformerArch> config;
  int batch = 1;
  int seq = 128;
  Phase phase = Phase::Prefill;
  DType dtype = DType::FP16;
  Granularity granularity = Granularity::Op;
  int layers = 0;  // 0: the architecture's own; otherwise truncate (tests, tutorials)
  int output = 1;     // generate: tokens generated, the prefill's included
  int kv_stride = 1;  // generate: simulate every kv_stride-th decode step (models/generation.hpp)
  // Mixture of experts only.
  int top_k = 0;            // 0: the architecture's own
  std::vector<std::vector<long>> expert_load;  // tokens per expert: empty: sampled; one list:
                                               // every layer's; else one list per layer
  std::uint64_t seed = 1;   // of the sampled load (the scenario's seed)
};

// The spec's architecture: its config's, else the built-in `arch` (InputError when unknown).
const TransformerArch& arch_of(const TransformerSpec& spec);

// Keys: generator (optional, must be "transformer"), arch or config, batch, seq, phase (prefill | decode |
// generate), output and kv_stride (generate only; output required), dtype, granularity (op |
// layer), layers, and for MoE archs experts: {load: sampled | [n, ...] | [[n, ...], ...],
// top_k: k}; each error located at the offending key or value. `seed` is the scenario's.
TransformerSpec parse_transformer_spec(const Yaml& model, std::uint64_t seed = 1);
// The graph of one step (prefill or decode), validated. InputError (no location) for a spec
// parse_transformer_spec would reject, and for phase generate (several graphs).
Graph generate_transformer(const TransformerSpec& spec);
// The prefill and decode steps of a phase-generate spec (InputError as generate_transformer).
Generation transformer_generation(const TransformerSpec& spec);
const char* to_string(Phase p);        // "prefill", "decode", "generate"
const char* to_string(Granularity g);  // "op", "layer"

}  // namespace placesim::models
