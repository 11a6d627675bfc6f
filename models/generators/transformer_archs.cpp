// The architectures, with their published hyper-parameters.
//
// GPT-2: Radford et al. 2019 and the released config.json files (n_ctx 1024, tied lm_head).
// OpenLLaMA: openlm-research/open_llama_{3b,7b} config.json (LLaMA architecture).
// LLaMA-2: Touvron et al. 2023, Table 1 and the released configs (70B uses grouped-query
// attention with 8 key/value heads).
#include <fmt/format.h>

#include "models/generators/transformer.hpp"

namespace placesim::models {

const std::vector<TransformerArch>& transformer_archs() {
  // name, layers, hidden, heads, kv_heads, ffn, vocab, gated, description, positions, biases, tied
  static const std::vector<TransformerArch> archs = {
      {"gpt2-large", 36, 1280, 20, 20, 5120, 50257, false, "GPT-2 large, 774M parameters", 1024, true, true},
      {"gpt2-xl", 48, 1600, 25, 25, 6400, 50257, false, "GPT-2 XL, 1.56B parameters", 1024, true, true},
      {"openllama-3b", 26, 3200, 32, 32, 8640, 32000, true, "OpenLLaMA 3B, 3.43B parameters", 0, false, false},
      {"openllama-7b", 32, 4096, 32, 32, 11008, 32000, true, "OpenLLaMA 7B, 6.74B parameters", 0, false, false},
      {"llama2-7b", 32, 4096, 32, 32, 11008, 32000, true, "LLaMA-2 7B, 6.74B parameters", 0, false, false},
      {"llama2-13b", 40, 5120, 40, 40, 13824, 32000, true, "LLaMA-2 13B, 13.0B parameters", 0, false, false},
      {"llama2-70b", 80, 8192, 64, 8, 28672, 32000, true, "LLaMA-2 70B, 69.0B parameters, GQA with 8 KV heads", 0, false, false},
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

int head_dim(const TransformerArch& a) { return a.hidden / a.heads; }

}  // namespace placesim::models
