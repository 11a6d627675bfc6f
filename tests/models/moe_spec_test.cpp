// Reading a mixture-of-experts model spec: the experts: keys, and bad input located at its key
// or value (file:line:column).
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "tests/error_of.hpp"

namespace placesim::models {
namespace {

TransformerSpec parse(const std::string& text, std::uint64_t seed = 1) {
  return parse_transformer_spec(Yaml::load_string(text, "s.yaml"), seed);
}

std::string error_of(const std::string& text) {
  return test::error_of([&] { parse(text); });
}

TEST(MoeSpec, ReadsTheExpertsKeys) {
  TransformerSpec s = parse("arch: mixtral-8x7b", 42);
  EXPECT_TRUE(s.expert_load.empty());  // sampled
  EXPECT_EQ(s.top_k, 0);               // the arch's
  EXPECT_EQ(s.seed, 42u);              // the scenario's
  EXPECT_TRUE(parse("{arch: phimoe, experts: {load: sampled, top_k: 4}}").expert_load.empty());
  EXPECT_EQ(parse("{arch: phimoe, experts: {top_k: 4}}").top_k, 4);
  s = parse("{arch: mixtral-8x7b, phase: decode, batch: 2, experts: {load: [1, 0, 0, 1, 0, 1, 1, 0]}}");
  EXPECT_EQ(s.expert_load, (std::vector<std::vector<long>>{{1, 0, 0, 1, 0, 1, 1, 0}}));
  s = parse(
      "{arch: mixtral-8x7b, phase: decode, batch: 1, layers: 2,"
      " experts: {load: [[1, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 1, 1]]}}");
  EXPECT_EQ(s.expert_load, (std::vector<std::vector<long>>{{1, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 1, 1}}));
}

TEST(MoeSpec, ErrorsNameTheLocation) {
  // Decode, batch 2, top 2 of 8: 4 routes per layer.
  const std::string head = "arch: mixtral-8x7b\nphase: decode\nbatch: 2\n";
  EXPECT_EQ(error_of("arch: mixtral-8x7b\nexperts: {top_k: 9}"),
            "s.yaml:2:18: top_k 9 exceeds mixtral-8x7b's 8 experts");
  EXPECT_EQ(error_of(head + "experts: {load: [1, 1, 1]}"), "s.yaml:4:17: expected 8 loads (one per expert), got 3");
  EXPECT_EQ(error_of(head + "experts: {load: [1, 1, 1, 0, 0, 0, 0, 0]}"),
            "s.yaml:4:17: loads sum to 3; 2 tokens x top 2 route 4");
  EXPECT_EQ(error_of(head + "experts: {load: [3, 1, 0, 0, 0, 0, 0, 0]}"),
            "s.yaml:4:17: expert 0's load 3 exceeds the 2 tokens (a token uses an expert once)");
  EXPECT_EQ(error_of(head + "experts: {load: [2, 2, 1, -1, 0, 0, 0, 0]}"),
            "s.yaml:4:27: expected a load >= 0, got '-1'");
  EXPECT_EQ(error_of(head + "experts: {load: [[2, 2, 0, 0, 0, 0, 0, 0]]}"),
            "s.yaml:4:17: expected one load list per layer (32), got 1");
  EXPECT_EQ(error_of(head + "layers: 2\nexperts: {load: [[2, 2, 0, 0, 0, 0, 0, 0], [2, 2]]}"),
            "s.yaml:5:44: expected 8 loads (one per expert), got 2");
  EXPECT_EQ(error_of(head + "experts: {load: uniform}"),
            "s.yaml:4:17: expected load: sampled, a list of tokens per expert, or one such list per layer; got "
            "'uniform'");
  EXPECT_EQ(error_of(head + "experts: {loads: sampled}"),
            "s.yaml:4:11: unknown key 'loads' (expected one of: load, top_k)");
  EXPECT_EQ(error_of("arch: llama2-7b\nexperts: {top_k: 2}"),
            "s.yaml:2:10: experts applies to mixture-of-experts archs only (llama2-7b is dense)");
  EXPECT_EQ(error_of("arch: mixtral-8x7b\nphase: generate\noutput: 4\nexperts: {load: [1, 1]}"),
            "s.yaml:4:17: a given load is one step's tokens; phase generate samples each step's (load: sampled)");
  EXPECT_EQ(error_of("arch: mixtral-8x8b"),
            "s.yaml:1:7: unknown arch 'mixtral-8x8b' (known: gpt2-large, gpt2-xl, gpt3-small, gpt3-medium, "
            "gpt3-large, gpt3-xl, gpt3-2.7b, gpt3-6.7b, gpt3-13b, gpt3-175b, mt-530b, openllama-3b, openllama-7b, "
            "llama2-7b, llama2-13b, llama2-70b, qwen2-7b, mixtral-8x7b, mixtral-8x22b, qwen2-57b-a14b, phimoe)");
}

}  // namespace
}  // namespace placesim::models
