// Transformer architectures from Hugging Face `config.json` files (`model: {config: FILE}`), for
// the families the transformer generator builds: llama, mistral, mixtral, qwen2, qwen2_moe
// (gated SwiGLU MLP, RMSNorm, rotary positions) and gpt2, opt (GELU or ReLU MLP, LayerNorm,
// learned positions, biases on every linear).
//
// What is read, per family (a key's default is the transformers library's where it has one):
//   llama, mistral, mixtral, qwen2, qwen2_moe
//     hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads (= heads),
//     intermediate_size, vocab_size, tie_word_embeddings (false), attention_bias (false; qwen2
//     and qwen2_moe have q/k/v biases always), mlp_bias (false), head_dim (if given, it must be
//     hidden_size / num_attention_heads)
//     mixtral: num_local_experts, num_experts_per_tok
//     qwen2_moe: num_experts, num_experts_per_tok, moe_intermediate_size (each expert's ffn),
//     shared_expert_intermediate_size (0: none); decoder_sparse_step must be 1 and
//     mlp_only_layers empty (every layer's MLP a mixture of experts)
//   gpt2  n_embd, n_layer, n_head, n_inner (null: 4 n_embd), vocab_size, n_positions,
//         tie_word_embeddings (true)
//   opt   hidden_size, num_hidden_layers, num_attention_heads, ffn_dim, vocab_size,
//         max_position_embeddings (its learned table has 2 rows more), tie_word_embeddings
//         (true), enable_bias (true); word_embed_proj_dim, if given, must be hidden_size
// Every other key (dtype, rope settings, token ids, ...) changes no op's work and is ignored.
// A value the generator cannot express is an InputError at that key's file:line:column naming
// it (an unknown model_type, a head_dim of its own, a projected embedding, dense layers among
// MoE ones); a missing key is one at the object.
#pragma once

#include <string>

#include "models/generators/transformer.hpp"

namespace placesim::models {

// The architecture of the config at `path`, named after the file's stem.
TransformerArch arch_from_hf_config(const std::string& path);

}  // namespace placesim::models
