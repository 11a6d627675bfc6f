// Hugging Face config.json files (models/generators/hf_config.hpp): the shipped configs of
// models/configs/ give exactly the graphs of the built-in archs they describe (every node's
// work, bytes and parameters, every edge), an OPT config reads its own conventions, and what the
// generator cannot express is refused at the key that says it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "models/generators/hf_config.hpp"
#include "models/generators/transformer.hpp"

namespace placesim::models {
namespace {

const std::string kConfigs = std::string(PLACESIM_SOURCE_DIR) + "/models/configs/";

void expect_same_graph(const Graph& a, const Graph& b, const std::string& what) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size()) << what;
  ASSERT_EQ(a.edges.size(), b.edges.size()) << what;
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    const Node &x = a.nodes[i], &y = b.nodes[i];
    EXPECT_EQ(x.name, y.name) << what;
    EXPECT_EQ(x.kind, y.kind) << what << " " << x.name;
    EXPECT_EQ(x.type, y.type) << what << " " << x.name;
    EXPECT_EQ(x.flops, y.flops) << what << " " << x.name;
    EXPECT_EQ(x.bytes, y.bytes) << what << " " << x.name;
    EXPECT_EQ(x.output_bytes, y.output_bytes) << what << " " << x.name;
    EXPECT_EQ(x.param_bytes, y.param_bytes) << what << " " << x.name;
    EXPECT_EQ(x.state_bytes, y.state_bytes) << what << " " << x.name;
    EXPECT_EQ(x.layer, y.layer) << what << " " << x.name;
  }
  for (size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].src, b.edges[i].src) << what;
    EXPECT_EQ(a.edges[i].dst, b.edges[i].dst) << what;
    EXPECT_EQ(a.edges[i].bytes, b.edges[i].bytes) << what;
  }
}

TEST(HfConfig, ShippedConfigsGiveTheBuiltInArchsGraphs) {
  for (auto [file, arch] : {std::pair{"llama-2-7b.json", "llama2-7b"}, std::pair{"mixtral-8x7b.json", "mixtral-8x7b"},
                            std::pair{"gpt2-large.json", "gpt2-large"}}) {
    for (Phase phase : {Phase::Prefill, Phase::Decode}) {
      TransformerSpec built_in;
      built_in.arch = arch;
      built_in.batch = 2;
      built_in.seq = 64;
      built_in.phase = phase;
      TransformerSpec from_config = built_in;
      from_config.config = arch_from_hf_config(kConfigs + file);
      from_config.arch = from_config.config->name;
      expect_same_graph(generate_transformer(built_in), generate_transformer(from_config),
                        std::string(file) + " " + to_string(phase));
    }
  }
}

std::string write_config(const std::string& name, const std::string& json) {
  const std::string dir = (std::filesystem::temp_directory_path() / "placesim-hf-config").string();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << json;
  return path;
}

// OPT: ffn_dim, a learned table of max_position_embeddings + 2 rows, tied, biases and LayerNorm.
TEST(HfConfig, OptReadsItsOwnKeys) {
  const TransformerArch a = arch_from_hf_config(write_config(
      "opt-1.3b.json", R"({"model_type": "opt", "hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 32, "ffn_dim": 8192, "vocab_size": 50272, "max_position_embeddings": 2048,
        "word_embed_proj_dim": 2048, "do_layer_norm_before": true})"));
  EXPECT_EQ(a.name, "opt-1.3b");
  EXPECT_EQ(a.layers, 24);
  EXPECT_EQ(a.hidden, 2048);
  EXPECT_EQ(a.heads, 32);
  EXPECT_EQ(a.kv_heads, 32);
  EXPECT_EQ(a.ffn, 8192);
  EXPECT_EQ(a.vocab, 50272);
  EXPECT_EQ(a.positions, 2050);
  EXPECT_TRUE(a.tied_embeddings);
  EXPECT_FALSE(a.gated_mlp);
  EXPECT_TRUE(a.biases.layernorm && a.biases.qkv && a.biases.out && a.biases.mlp);
}

std::string error_of(const std::string& name, const std::string& json) {
  try {
    arch_from_hf_config(write_config(name, json));
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find(name));
  }
  return "";
}

TEST(HfConfig, WhatTheGeneratorCannotExpressIsRefusedAtItsKey) {
  EXPECT_EQ(error_of("bert.json", "{\"model_type\": \"bert\"}"),
            "bert.json:1:16: model_type 'bert' is not one the transformer generator builds (expected llama, mistral, "
            "mixtral, qwen2, qwen2_moe, gpt2 or opt)");
  EXPECT_EQ(error_of("nemo.json", R"({"model_type": "mistral", "hidden_size": 5120, "num_hidden_layers": 40,
    "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 131072,
    "head_dim": 128})"),
            "nemo.json:3:17: head_dim 128 is not expressible: the generator's heads are hidden_size / "
            "num_attention_heads = 160 wide");
  EXPECT_EQ(error_of("short.json", R"({"model_type": "llama", "num_hidden_layers": 2})"),
            "short.json:1:1: missing key 'hidden_size'");
  EXPECT_EQ(error_of("qmoe.json", R"({"model_type": "qwen2_moe", "hidden_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 4, "vocab_size": 100, "moe_intermediate_size": 32, "num_experts": 4,
    "num_experts_per_tok": 2, "mlp_only_layers": [1]})"),
            "qmoe.json:3:50: mlp_only_layers is not expressible: every layer's MLP is a mixture of experts here");
  EXPECT_EQ(error_of("opt-350m.json", R"({"model_type": "opt", "hidden_size": 1024, "num_hidden_layers": 24,
    "num_attention_heads": 16, "ffn_dim": 4096, "vocab_size": 50272, "max_position_embeddings": 2048,
    "word_embed_proj_dim": 512})"),
            "opt-350m.json:3:28: word_embed_proj_dim 512 is not expressible: the generator's embedding is "
            "hidden_size wide");
  EXPECT_EQ(error_of("zero.json", R"({"model_type": "gpt2", "n_embd": 0, "n_layer": 2, "n_head": 2, "vocab_size": 10,
    "n_positions": 8})"),
            "zero.json:1:34: n_embd must be a whole number between 1 and 1e8, got 0");
}

}  // namespace
}  // namespace placesim::models
