// The architectures, with their published hyper-parameters.
//
// GPT-2: Radford et al. 2019 and the released config.json files (n_ctx 1024, tied lm_head).
// OpenLLaMA: openlm-research/open_llama_{3b,7b} config.json (LLaMA architecture).
// LLaMA-2: Touvron et al. 2023, Table 1 and the released configs (70B uses grouped-query
// attention with 8 key/value heads).
// GPT-3: Brown et al. 2020, Table 2.1 (n_ctx 2048, GPT-2's block, ffn 4h, tied embedding; the
// alternating locally banded sparse attention is not modelled: every layer is dense). The
// paper's 13B row says d_model 5140 with 40 heads of 128: 40 x 128 = 5120 is used; its XL row
// says 24 heads of 128 for d_model 2048, which cannot both hold: 16 heads of 128 are used.
// MT-NLG 530B (called MT-530B in the AsymGroup paper): Smith et al. 2022, "Using DeepSpeed and
// Megatron to Train Megatron-Turing NLG 530B", Section 3: 105 layers, hidden 20480, 128 heads,
// sequence length 2048; GPT-3's block with learned position embeddings and ffn 4h; the GPT-2
// BPE vocabulary padded to 51200 as Megatron-LM pads it; the embedding tied to the lm_head as
// Megatron-LM ties them.
#include <fmt/format.h>

#include "models/generators/transformer.hpp"

namespace placesim::models {

const std::vector<TransformerArch>& transformer_archs() {
  // name, layers, hidden, heads, kv_heads, ffn, vocab, gated, description, positions, biases, tied, moe
  static const std::vector<TransformerArch> archs = {
      {"gpt2-large", 36, 1280, 20, 20, 5120, 50257, false, "GPT-2 large, 774M parameters", 1024, kGpt2Biases, true},
      {"gpt2-xl", 48, 1600, 25, 25, 6400, 50257, false, "GPT-2 XL, 1.56B parameters", 1024, kGpt2Biases, true},
      {"gpt3-small", 12, 768, 12, 12, 3072, 50257, false, "GPT-3 Small, 125M parameters", 2048, kGpt2Biases, true},
      {"gpt3-medium", 24, 1024, 16, 16, 4096, 50257, false, "GPT-3 Medium, 350M parameters", 2048, kGpt2Biases, true},
      {"gpt3-large", 24, 1536, 16, 16, 6144, 50257, false, "GPT-3 Large, 760M parameters", 2048, kGpt2Biases, true},
      {"gpt3-xl", 24, 2048, 16, 16, 8192, 50257, false, "GPT-3 XL, 1.3B parameters", 2048, kGpt2Biases, true},
      {"gpt3-2.7b", 32, 2560, 32, 32, 10240, 50257, false, "GPT-3 2.7B", 2048, kGpt2Biases, true},
      {"gpt3-6.7b", 32, 4096, 32, 32, 16384, 50257, false, "GPT-3 6.7B", 2048, kGpt2Biases, true},
      {"gpt3-13b", 40, 5120, 40, 40, 20480, 50257, false, "GPT-3 13B", 2048, kGpt2Biases, true},
      {"gpt3-175b", 96, 12288, 96, 96, 49152, 50257, false, "GPT-3 175B", 2048, kGpt2Biases, true},
      {"mt-530b", 105, 20480, 128, 128, 81920, 51200, false, "Megatron-Turing NLG 530B (MT-NLG), 530B parameters", 2048, kGpt2Biases, true},
      {"openllama-3b", 26, 3200, 32, 32, 8640, 32000, true, "OpenLLaMA 3B, 3.43B parameters", 0, {}, false},
      {"openllama-7b", 32, 4096, 32, 32, 11008, 32000, true, "OpenLLaMA 7B, 6.74B parameters", 0, {}, false},
      {"llama2-7b", 32, 4096, 32, 32, 11008, 32000, true, "LLaMA-2 7B, 6.74B parameters", 0, {}, false},
      {"llama2-13b", 40, 5120, 40, 40, 13824, 32000, true, "LLaMA-2 13B, 13.0B parameters", 0, {}, false},
      {"llama2-70b", 80, 8192, 64, 8, 28672, 32000, true, "LLaMA-2 70B, 69.0B parameters, GQA with 8 KV heads", 0, {}, false},
      {"qwen2-7b", 28, 3584, 28, 4, 18944, 152064, true, "Qwen2 7B, 7.6B parameters, GQA with 4 KV heads, q/k/v biases",
       0, {.qkv = true}, false},
      {"mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, true,
       "Mixtral 8x7B, 46.7B parameters (12.9B active)", 0, {}, false, {.experts = 8, .top_k = 2}},
      {"mixtral-8x22b", 56, 6144, 48, 8, 16384, 32000, true,
       "Mixtral 8x22B, 141B parameters (39B active)", 0, {}, false, {.experts = 8, .top_k = 2}},
      {"qwen2-57b-a14b", 28, 3584, 28, 4, 2560, 151936, true,
       "Qwen2-57B-A14B, 57.4B parameters (14B active), a gated shared expert of ffn 20480", 0, {.qkv = true},
       false, {.experts = 64, .top_k = 8, .shared_ffn = 20480}},
      {"phimoe", 32, 4096, 32, 8, 6400, 32064, true,
       "Phi-3.5-MoE, 41.9B parameters (6.6B active)", 0,
       {.layernorm = true, .qkv = true, .out = true, .lm_head = true}, false, {.experts = 16, .top_k = 2}},
  };
  return archs;
}

const TransformerArch& find_transformer_arch(const std::string& name) {
  std::string known;
  for (const auto& a : transformer_archs()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  throw InputError(fmt::format("unknown arch '{}' (known: {})", name, known));
}

const TransformerArch& arch_of(const TransformerSpec& spec) {
  return spec.config ? *spec.config : find_transformer_arch(spec.arch);
}

int head_dim(const TransformerArch& a) { return a.hidden / a.heads; }
bool is_moe(const TransformerArch& a) { return a.moe.experts > 0; }

}  // namespace placesim::models
