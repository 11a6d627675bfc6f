#include "models/generators/hf_config.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "sim/core/json_doc.hpp"

namespace placesim::models {
namespace {

// A whole number >= 1 at `key` of `c` (required).
int count(const Json& c, const char* key) {
  const Json v = c.at(key);
  const std::int64_t n = v.integer();
  if (n < 1 || n > 100'000'000) v.fail(fmt::format("{} must be a whole number between 1 and 1e8, got {}", key, v.str()));
  return static_cast<int>(n);
}

// `key` of `c` as a count, `def` when absent or null.
int count_or(const Json& c, const char* key, int def) { return c.get(key).defined() ? count(c, key) : def; }

bool flag_or(const Json& c, const char* key, bool def) { return c.get(key).defined() ? c.at(key).boolean() : def; }

// The key must be absent, null, or `expected`.
void require(const Json& c, const char* key, std::int64_t expected, const std::string& why) {
  const Json v = c.get(key);
  if (v.defined() && v.integer() != expected)
    v.fail(fmt::format("{} {} is not expressible: {}", key, v.str(), why));
}

// llama, mistral, mixtral, qwen2, qwen2_moe: the LLaMA block (RMSNorm, rotary positions, SwiGLU).
TransformerArch llama_family(const Json& c, const std::string& type, TransformerArch a) {
  a.layers = count(c, "num_hidden_layers");
  a.hidden = count(c, "hidden_size");
  a.heads = count(c, "num_attention_heads");
  a.kv_heads = count_or(c, "num_key_value_heads", a.heads);
  a.vocab = count(c, "vocab_size");
  a.gated_mlp = true;
  a.positions = 0;
  a.tied_embeddings = flag_or(c, "tie_word_embeddings", false);
  const bool qwen = type == "qwen2" || type == "qwen2_moe";
  a.biases.qkv = qwen || flag_or(c, "attention_bias", false);
  a.biases.out = !qwen && flag_or(c, "attention_bias", false);
  a.biases.mlp = flag_or(c, "mlp_bias", false);
  if (a.hidden % a.heads != 0)
    c.at("num_attention_heads").fail(fmt::format("hidden_size {} is not a multiple of num_attention_heads {}", a.hidden, a.heads));
  if (a.heads % a.kv_heads != 0)
    c.at("num_key_value_heads").fail(fmt::format("num_attention_heads {} is not a multiple of num_key_value_heads {}",
                                                 a.heads, a.kv_heads));
  require(c, "head_dim", a.hidden / a.heads,
          fmt::format("the generator's heads are hidden_size / num_attention_heads = {} wide", a.hidden / a.heads));
  if (type == "mixtral") {
    a.ffn = count(c, "intermediate_size");
    a.moe.experts = count(c, "num_local_experts");
    a.moe.top_k = count(c, "num_experts_per_tok");
  } else if (type == "qwen2_moe") {
    a.ffn = count(c, "moe_intermediate_size");
    a.moe.experts = count(c, "num_experts");
    a.moe.top_k = count(c, "num_experts_per_tok");
    const Json shared = c.get("shared_expert_intermediate_size");
    a.moe.shared_ffn = shared.defined() && shared.integer() != 0 ? count(c, "shared_expert_intermediate_size") : 0;
    require(c, "decoder_sparse_step", 1, "every layer's MLP is a mixture of experts here");
    const Json dense = c.get("mlp_only_layers");
    if (dense.defined() && !dense.items().empty())
      dense.fail("mlp_only_layers is not expressible: every layer's MLP is a mixture of experts here");
  } else {
    a.ffn = count(c, "intermediate_size");
  }
  if (a.moe.top_k > a.moe.experts)
    c.at("num_experts_per_tok").fail(fmt::format("num_experts_per_tok {} exceeds the {} experts", a.moe.top_k, a.moe.experts));
  return a;
}

// gpt2, opt: GPT-2's block (LayerNorm, learned positions, biases on every linear, GELU or ReLU).
TransformerArch gpt2_family(const Json& c, const std::string& type, TransformerArch a) {
  const bool gpt2 = type == "gpt2";
  a.layers = count(c, gpt2 ? "n_layer" : "num_hidden_layers");
  a.hidden = count(c, gpt2 ? "n_embd" : "hidden_size");
  a.heads = count(c, gpt2 ? "n_head" : "num_attention_heads");
  a.kv_heads = a.heads;
  a.ffn = gpt2 ? count_or(c, "n_inner", 4 * a.hidden) : count(c, "ffn_dim");
  a.vocab = count(c, "vocab_size");
  a.gated_mlp = false;
  // OPT's learned position table has 2 rows before position 0 (its padding offset).
  a.positions = gpt2 ? count(c, "n_positions") : count(c, "max_position_embeddings") + 2;
  a.tied_embeddings = flag_or(c, "tie_word_embeddings", true);
  a.biases = gpt2 || flag_or(c, "enable_bias", true) ? kGpt2Biases : Biases{.layernorm = true};
  if (a.hidden % a.heads != 0)
    c.at(gpt2 ? "n_head" : "num_attention_heads")
        .fail(fmt::format("the hidden size {} is not a multiple of the {} heads", a.hidden, a.heads));
  if (!gpt2) require(c, "word_embed_proj_dim", a.hidden, "the generator's embedding is hidden_size wide");
  return a;
}

}  // namespace

TransformerArch arch_from_hf_config(const std::string& path) {
  const Json c = Json::load_file(path);
  if (!c.is_map()) c.fail("expected a Hugging Face config.json (an object with model_type)");
  const Json type_v = c.at("model_type");
  const std::string type = type_v.str();
  TransformerArch a{};
  a.name = std::filesystem::path(path).stem().string();
  a.description = fmt::format("{} from {}", type, path);
  if (type == "llama" || type == "mistral" || type == "mixtral" || type == "qwen2" || type == "qwen2_moe")
    return llama_family(c, type, a);
  if (type == "gpt2" || type == "opt") return gpt2_family(c, type, a);
  type_v.fail(fmt::format("model_type '{}' is not one the transformer generator builds (expected llama, mistral, "
                          "mixtral, qwen2, qwen2_moe, gpt2 or opt)",
                          type));
}

}  // namespace placesim::models
