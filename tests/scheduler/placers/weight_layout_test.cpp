// Where a plan keeps each weight (scheduler/plan/weight_layout.hpp), the check a whole generation makes
// between its prefill and decode plans: the tensor-parallel placers keep one layout for both
// phases on one DGX A100 node, and plans that split weights differently are told apart.
#include "scheduler/plan/weight_layout.hpp"

#include <gtest/gtest.h>

#include "support.hpp"

namespace {

using namespace placers_test;

scheduler::Problem gpt2_large(models::Phase phase) {
  return problem(gpt2_large_2_layers(phase), hw::load_topology(Yaml(YAML::Node("dgx-a100"), "test")));
}

scheduler::WeightLayout layout_of(const std::string& placer, const scheduler::Problem& p) {
  const scheduler::PlacerResult r = run_placer(placer, p);
  EXPECT_TRUE(r.plan) << placer << ": " << r.message;
  return r.plan ? scheduler::weight_layout(*p.graph, *r.plan) : scheduler::WeightLayout{};
}

TEST(WeightLayout, TensorParallelPlacersKeepOneLayoutForPrefillAndDecode) {
  const scheduler::Problem prefill = gpt2_large(models::Phase::Prefill), decode = gpt2_large(models::Phase::Decode);
  for (const char* placer : {"megatron-tp", "autoddl-2d", "asymgroup"}) {
    SCOPED_TRACE(placer);
    const scheduler::WeightLayout a = layout_of(placer, prefill), b = layout_of(placer, decode);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(scheduler::first_difference(a, b), "");
  }
}

// megatron-tp on 8 GPUs splits l0.qkv.w into 8 column slices; on 2 GPUs into 2. The first name
// that differs in order is a slice both have but keep on other terms (another share's bytes).
TEST(WeightLayout, NamesTheFirstWeightKeptDifferently) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  const scheduler::WeightLayout eight = layout_of("megatron-tp", p);
  const scheduler::WeightLayout two = layout_of("{name: megatron-tp, devices: [gpu0, gpu1]}", p);
  ASSERT_TRUE(eight.contains("l0.qkv.w#7"));
  EXPECT_EQ(eight.at("l0.qkv.w#0").devices.size(), 1u);
  EXPECT_EQ(eight.at("l0.qkv.w#0").bytes * 4, two.at("l0.qkv.w#0").bytes);
  EXPECT_NE(scheduler::first_difference(eight, two), "");
  EXPECT_EQ(scheduler::first_difference(eight, eight), "");
  // The single-device plan keeps every weight whole on its one GPU.
  const scheduler::WeightLayout one = layout_of("single-device", p);
  EXPECT_EQ(one.at("embed.wte").devices.size(), 1u);
  EXPECT_FALSE(one.contains("l0.qkv.w#0"));
  EXPECT_NE(scheduler::first_difference(one, eight), "");
}

}  // namespace
