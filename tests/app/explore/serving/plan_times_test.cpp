// Iteration times from placed plans: the bucketed, interpolated time of a shape against the
// plan simulated at the shape itself.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "app/explore/serving/plan_times.hpp"
#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "scheduler/placer.hpp"

namespace {

using namespace placesim;

models::TransformerSpec gpt2_2_layers(models::Phase phase, int batch, int seq) {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 2;
  spec.phase = phase;
  spec.batch = batch;
  spec.seq = seq;
  return spec;
}

scheduler::Problem on_v100(const models::TransformerSpec& spec) {
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")));
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Resident;  // a server loads its weights once
  return p;
}

// Placed at one shape each (a 512-token prompt; 16 sequences at 512 positions), the plans of a
// whole-model placer and a tensor-parallel one: over 40 random shapes (prompts of 1-1024 tokens,
// 1-64 decodes at 1-1024 positions each) the bucketed time is within 2% of the exact one at the
// default width, 0.25, and the simulations cached are far fewer than the lookups.
TEST(PlanTimes, BucketedTimesAreWithinTwoPercentOfExactSimulation) {
  for (const char* placer : {"single-device", "megatron-tp"}) {
    const scheduler::Problem prefill = on_v100(gpt2_2_layers(models::Phase::Prefill, 1, 512));
    const scheduler::Problem decode = on_v100(gpt2_2_layers(models::Phase::Decode, 16, 512));
    const auto spec = scheduler::make_placer(Yaml(YAML::Node(placer), "t"));
    explore::PlanTimes times(gpt2_2_layers(models::Phase::Prefill, 1, 1), prefill, *spec.placer->place(prefill).plan,
                             decode, *spec.placer->place(decode).plan, 0.25);
    std::mt19937_64 rng(3);
    double worst = 0;
    for (int i = 0; i < 40; ++i) {
      explore::IterationShape s;
      s.prefill_tokens = i % 3 == 2 ? 0 : std::uniform_int_distribution<std::int64_t>(1, 1024)(rng);
      s.prefill_seqs = s.prefill_tokens > 0;
      s.decode_seqs = i % 3 == 1 ? 0 : std::uniform_int_distribution<int>(1, 64)(rng);
      s.decode_context = s.decode_seqs * std::uniform_int_distribution<std::int64_t>(1, 1024)(rng);
      if (s.prefill_tokens + s.decode_seqs == 0) continue;
      const double exact = times.exact(s), bucketed = times(s);
      worst = std::max(worst, std::abs(bucketed / exact - 1));
    }
    EXPECT_LT(worst, 0.02) << placer;
    RecordProperty(std::string(placer) + "_worst_error", std::to_string(worst));
    RecordProperty(std::string(placer) + "_simulations", std::to_string(times.simulations()));
  }
}

}  // namespace
