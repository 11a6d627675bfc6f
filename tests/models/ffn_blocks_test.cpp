// The FFN blocks of dense and mixture-of-experts graphs, checked against the generator's op names
// and hand-worked token counts; graphs the generator did not make at op granularity are refused,
// naming the op.
#include <gtest/gtest.h>

#include "models/ffn_blocks.hpp"
#include "models/generators/random_dag.hpp"
#include "models/generators/transformer.hpp"
#include "tests/error_of.hpp"

namespace placesim::models {
namespace {

std::vector<int> ids(const Graph& g, const std::vector<std::string>& names) {
  std::vector<int> out;
  for (const std::string& n : names) out.push_back(g.find(n));
  return out;
}

// LLaMA-2 7B decode, batch 4: each layer's MLP is one expert of 4 tokens.
TEST(FfnBlocks, DenseLlama2) {
  TransformerSpec s;
  s.arch = "llama2-7b";
  s.phase = Phase::Decode;
  s.batch = 4;
  s.layers = 2;
  const Graph g = generate_transformer(s);
  const std::vector<FfnBlock> blocks = ffn_blocks(g);
  ASSERT_EQ(blocks.size(), 2u);
  for (int l = 0; l < 2; ++l) {
    const FfnBlock& b = blocks[l];
    const std::string p = "l" + std::to_string(l) + ".";
    EXPECT_EQ(b.layer, l);
    EXPECT_EQ(b.router, -1);
    ASSERT_EQ(b.experts.size(), 1u);
    EXPECT_EQ(b.experts[0].index, -1);
    EXPECT_FALSE(b.experts[0].shared);
    EXPECT_EQ(b.experts[0].tokens, 4.0);
    EXPECT_EQ(b.experts[0].gemms, ids(g, {p + "up", p + "gate", p + "down"}));
    EXPECT_EQ(b.experts[0].weights, ids(g, {p + "up.w", p + "gate.w", p + "down.w"}));
    EXPECT_EQ(b.others, ids(g, {p + "ln2", p + "act", p + "add2"}));
  }
}

// GPT-2 (GELU): up and down only.
TEST(FfnBlocks, DenseGeluHasNoGate) {
  TransformerSpec s;
  s.arch = "gpt2-large";
  s.seq = 8;
  s.batch = 2;
  s.layers = 1;
  const Graph g = generate_transformer(s);
  const FfnBlock b = ffn_blocks(g).at(0);
  EXPECT_EQ(b.experts.at(0).gemms, ids(g, {"l0.up", "l0.down"}));
  EXPECT_EQ(b.experts.at(0).tokens, 16.0);  // prefill: 2 sequences x 8 tokens
}

// Mixtral 8x7B decode, batch 4, the given load [2, 0, 1, 1, 0, 2, 1, 1]: experts 1 and 4 idle.
TEST(FfnBlocks, MixtralWithAGivenLoad) {
  TransformerSpec s;
  s.arch = "mixtral-8x7b";
  s.phase = Phase::Decode;
  s.batch = 4;
  s.layers = 1;
  s.expert_load = {{2, 0, 1, 1, 0, 2, 1, 1}};
  const Graph g = generate_transformer(s);
  const std::vector<FfnBlock> blocks = ffn_blocks(g);
  ASSERT_EQ(blocks.size(), 1u);
  const FfnBlock& b = blocks[0];
  EXPECT_EQ(b.router, g.find("l0.router"));
  ASSERT_EQ(b.experts.size(), 8u);
  std::vector<std::string> others = {"l0.ln2", "l0.topk"};
  for (int e = 0; e < 8; ++e) {
    const FfnExpert& x = b.experts[e];
    const std::string p = "l0.expert" + std::to_string(e) + ".";
    EXPECT_EQ(x.index, e);
    EXPECT_EQ(x.tokens, static_cast<double>(s.expert_load[0][e]));
    EXPECT_EQ(x.weights, ids(g, {p + "up.w", p + "gate.w", p + "down.w"}));
    if (e == 1 || e == 4) {
      EXPECT_TRUE(x.gemms.empty()) << e;
    } else {
      EXPECT_EQ(x.gemms, ids(g, {p + "up", p + "gate", p + "down"})) << e;
      others.push_back(p + "act");
    }
  }
  others.push_back("l0.combine");
  others.push_back("l0.add2");
  EXPECT_EQ(b.others, ids(g, others));
}

// Qwen2-57B-A14B: the shared expert comes last, on every token.
TEST(FfnBlocks, QwenSharedExpert) {
  TransformerSpec s;
  s.arch = "qwen2-57b-a14b";
  s.phase = Phase::Decode;
  s.batch = 3;
  s.layers = 1;
  const Graph g = generate_transformer(s);
  const FfnBlock b = ffn_blocks(g).at(0);
  ASSERT_EQ(b.experts.size(), 65u);
  double routed = 0;
  for (int e = 0; e < 64; ++e) routed += b.experts[e].tokens;
  EXPECT_EQ(routed, 3.0 * 8);
  const FfnExpert& shared = b.experts[64];
  EXPECT_TRUE(shared.shared);
  EXPECT_EQ(shared.tokens, 3.0);
  EXPECT_EQ(shared.gemms, ids(g, {"l0.shared.up", "l0.shared.gate", "l0.shared.down"}));
  EXPECT_NE(std::find(b.others.begin(), b.others.end(), g.find("l0.shared_gate")), b.others.end());
}

TEST(FfnBlocks, RefusesGraphsTheGeneratorDidNotMakeNamingTheOp) {
  RandomDagSpec r;
  const Graph dag = generate_random_dag(r);
  EXPECT_EQ(test::error_of([&] { ffn_blocks(dag); }),
            "graph '" + dag.name +
                "' has no op 'l0.ln2' (no layer; ffn_blocks reads the op names of the transformer generator at op "
                "granularity)");
  TransformerSpec s;
  s.arch = "mixtral-8x7b";
  s.layers = 1;
  s.seq = 4;
  s.granularity = Granularity::Layer;
  const Graph layers = generate_transformer(s);
  EXPECT_EQ(test::error_of([&] { ffn_blocks(layers); }),
            "op 'l0' is a whole layer (granularity layer); ffn_blocks reads the op names of the transformer "
            "generator at op granularity");
}

}  // namespace
}  // namespace placesim::models
