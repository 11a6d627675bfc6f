// A whole generation: which decode steps are simulated and what each stands for (stride
// counting), and the transformer's step graphs (one plan must serve every decode step).
#include "models/generation.hpp"

#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"

namespace placesim::models {

bool operator==(const DecodeStep& a, const DecodeStep& b) { return a.kv == b.kv && a.count == b.count; }
void PrintTo(const DecodeStep& s, std::ostream* os) { *os << "{kv " << s.kv << ", count " << s.count << "}"; }

namespace {

int total_count(const std::vector<DecodeStep>& steps) {
  int n = 0;
  for (const DecodeStep& s : steps) n += s.count;
  return n;
}

// Output 5 after a prompt of 10: the prefill makes token 1, decode steps make tokens 2..5
// attending over 11, 12, 13 and 14 positions.
TEST(DecodeSteps, StrideOneIsEveryStep) {
  EXPECT_EQ(decode_steps(10, 5, 1), (std::vector<DecodeStep>{{11, 1}, {12, 1}, {13, 1}, {14, 1}}));
}

// 8 decode steps (kv 9..16) in blocks of 3: steps 1-3, 4-6, 7-8, each simulated at its last step
// (kv 11, 14, 16) and counted for its length; the final step is among them.
TEST(DecodeSteps, StrideSimulatesEachBlocksLastStepForTheBlock) {
  const std::vector<DecodeStep> steps = decode_steps(8, 9, 3);
  EXPECT_EQ(steps, (std::vector<DecodeStep>{{11, 3}, {14, 3}, {16, 2}}));
  EXPECT_EQ(total_count(steps), 8);
  EXPECT_EQ(decode_steps(8, 9, 4), (std::vector<DecodeStep>{{12, 4}, {16, 4}}));  // blocks divide evenly
}

TEST(DecodeSteps, EveryStrideCountsEveryStepAndEndsAtTheLargestCache) {
  for (int output : {2, 3, 17, 100})
    for (int stride : {1, 2, 7, 16, 99, 1000}) {
      const std::vector<DecodeStep> steps = decode_steps(32, output, stride);
      SCOPED_TRACE(testing::Message() << "output " << output << ", stride " << stride);
      EXPECT_EQ(total_count(steps), output - 1);
      ASSERT_FALSE(steps.empty());
      EXPECT_EQ(steps.back().kv, 32 + output - 1);
      EXPECT_EQ(steps.size(), static_cast<size_t>((output - 1 + stride - 1) / stride));
    }
}

TEST(DecodeSteps, OneOutputTokenHasNoDecodeStep) { EXPECT_TRUE(decode_steps(64, 1, 1).empty()); }

TransformerSpec generate_spec(int seq, int output) {
  TransformerSpec s;
  s.arch = "gpt2-large";
  s.layers = 2;
  s.batch = 2;
  s.seq = seq;
  s.phase = Phase::Generate;
  s.output = output;
  return s;
}

TEST(TransformerGeneration, PrefillIsThePromptAndDecodeStepsDifferOnlyInCost) {
  const Generation g = transformer_generation(generate_spec(16, 8));
  EXPECT_EQ(g.input, 16);
  EXPECT_EQ(g.output, 8);
  TransformerSpec prefill = generate_spec(16, 8);
  prefill.phase = Phase::Prefill;
  EXPECT_EQ(g.prefill.name, generate_transformer(prefill).name);

  const Graph a = g.decode(17), b = g.decode(23);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  ASSERT_EQ(a.edges.size(), b.edges.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) EXPECT_EQ(a.nodes[i].name, b.nodes[i].name);
  for (size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].src, b.edges[i].src);
    EXPECT_EQ(a.edges[i].dst, b.edges[i].dst);
  }
  // Only attention reads the cache: its KV state grows with the positions it attends over.
  const int attn = a.find("l0.attn");
  ASSERT_GE(attn, 0);
  EXPECT_DOUBLE_EQ(b.nodes[attn].state_bytes / a.nodes[attn].state_bytes, 23.0 / 17.0);
}

TEST(TransformerGeneration, RejectsWhatParseRejects) {
  TransformerSpec s = generate_spec(16, 0);
  EXPECT_THROW(transformer_generation(s), InputError);  // output < 1
  s.output = 4;
  s.kv_stride = 0;
  EXPECT_THROW(transformer_generation(s), InputError);
  s.kv_stride = 1;
  s.seq = 1000;
  s.output = 26;  // the last step attends over 1025 positions; GPT-2 has 1024
  EXPECT_THROW(transformer_generation(s), InputError);
  s.output = 25;
  EXPECT_NO_THROW(transformer_generation(s));
  s.phase = Phase::Decode;
  EXPECT_THROW(transformer_generation(s), InputError);
  s.phase = Phase::Generate;
  EXPECT_THROW(generate_transformer(s), InputError);  // several graphs, not one
}

}  // namespace
}  // namespace placesim::models
