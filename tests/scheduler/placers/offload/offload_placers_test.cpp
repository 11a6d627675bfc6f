// scheinfer, llamacpp-offload and fiddler on LLaMA-2 7B (4 layers) and Mixtral 8x7B (2 layers) on
// ScheInfer's Testbed-A, each property worked from the models' own sizes.
#include <gtest/gtest.h>

#include "models/cost/cost_models.hpp"
#include "scheduler/score_plan.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace {

using namespace placers_test;

scheduler::Problem offload_problem(const std::string& arch, models::Phase phase, double gpu_memory, int layers = 4) {
  models::TransformerSpec spec;
  spec.arch = arch;
  spec.layers = layers;
  spec.seq = 256;
  spec.phase = phase;
  spec.dtype = models::DType::FP16;
  hw::Topology t = hw::load_topology(Yaml(YAML::Node("scheinfer-a"), "test"));
  t.devices[t.index("gpu0")].memory = gpu_memory;
  scheduler::Problem p = problem(models::generate_transformer(spec), std::move(t), scheduler::WeightsMode::Host);
  p.cost = models::cost_models().get("linear").make(Yaml::load_string("{name: linear, fallback: roofline}", "c.yaml"),
                                                    *p.topo, *p.graph);
  return p;
}

double weights_of_layer(const models::Graph& g, int layer) {
  double b = 0;
  for (const models::Node& n : g.nodes)
    if (n.kind == models::NodeKind::Param && n.layer == layer) b += n.param_bytes;
  return b;
}

TEST(OffloadPlacers, ScheinferRatesSumToOneAndItsPlanFitsTheGpu) {
  for (models::Phase phase : {models::Phase::Decode, models::Phase::Prefill}) {
    const scheduler::Problem p = offload_problem("llama2-7b", phase, 2.5e9);
    const scheduler::PlacerResult r = run_placer("scheinfer", p);
    ASSERT_TRUE(r.plan) << r.message;
    const auto& layers = r.choices.at("layers");
    ASSERT_EQ(layers.size(), 4u);
    for (const auto& l : layers) {
      EXPECT_NEAR(l.at("cc").get<double>() + l.at("cg").get<double>() + l.at("gg").get<double>(), 1, 1e-9);
      EXPECT_EQ(l.contains("n_g"), phase == models::Phase::Prefill);
    }
    EXPECT_LE(r.choices.at("gg_bytes").get<double>(), r.choices.at("gg_budget_bytes").get<double>() * (1 + 1e-12));
    const scheduler::PlanScore s = scheduler::score_plan(p, *r.plan);
    EXPECT_TRUE(s.fits()) << s.memory_message();
  }
}

TEST(OffloadPlacers, LlamaCppOffloadsTheLastLayersAndTheOutputLayerLast) {
  const scheduler::Problem roomy = offload_problem("llama2-7b", models::Phase::Decode, 48e9);
  EXPECT_EQ(run_placer("llamacpp-offload", roomy).choices.at("n_gpu_layers"), 5);  // 4 layers + output
  // Room for two layers (each ~0.40 GB of weights in fp16) beside the CPU's share: layers 2 and 3,
  // not the output layer; layer 0 stays on the CPU.
  const double layer = weights_of_layer(*roomy.graph, 0);
  const scheduler::Problem tight = offload_problem("llama2-7b", models::Phase::Decode, 2.5 * layer);
  const scheduler::PlacerResult r = run_placer("llamacpp-offload", tight);
  ASSERT_TRUE(r.plan) << r.message;
  EXPECT_EQ(r.choices.at("n_gpu_layers"), 2);
  const models::Graph& g = *tight.graph;
  EXPECT_EQ(r.plan->device_of[g.find("l3.qkv")], tight.topo->index("gpu0"));
  EXPECT_EQ(r.plan->device_of[g.find("l0.qkv")], tight.topo->index("cpu0"));
  EXPECT_EQ(r.plan->device_of[g.find("lm_head")], tight.topo->index("cpu0"));
  EXPECT_TRUE(scheduler::score_plan(tight, *r.plan).fits());
  // A count given is used as given.
  EXPECT_EQ(run_placer("{name: llamacpp-offload, layers: 1}", roomy).choices.at("n_gpu_layers"), 1);
}

TEST(OffloadPlacers, FiddlerNeverCopiesAnExpertWeight) {
  const scheduler::Problem p = offload_problem("mixtral-8x7b", models::Phase::Decode, 1.5e9, 2);
  const scheduler::PlacerResult r = run_placer("fiddler", p);
  ASSERT_TRUE(r.plan) << r.message;
  for (const scheduler::PlanQueue& q : r.plan->queues)
    for (const scheduler::PlanItem& it : q.items)
      if (it.kind == scheduler::PlanItem::Kind::Deliver) {
        EXPECT_EQ(p.graph->nodes[it.node].kind, models::NodeKind::Op) << "copies a weight";
      }
  EXPECT_GT(r.choices.at("experts_on_gpu").get<int>(), 0);
  EXPECT_LT(r.choices.at("experts_on_gpu").get<int>(), r.choices.at("experts").get<int>());
  EXPECT_TRUE(scheduler::score_plan(p, *r.plan).fits());
}

TEST(OffloadPlacers, BadOptionsAreErrorsAtTheirKey) {
  for (const char* spec : {"{name: scheinfer,\n threads: 0}", "{name: scheinfer,\n memory: -1GB}",
                           "{name: scheinfer,\n steps: 0}", "{name: llamacpp-offload,\n layers: -1}"}) {
    try {
      scheduler::make_placer(Yaml::load_string(spec, "s.yaml"));
      ADD_FAILURE() << "accepted " << spec;
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().line, 2) << e.what();
    }
  }
  const scheduler::Problem p = offload_problem("llama2-7b", models::Phase::Decode, 48e9);
  for (const char* spec : {"{name: scheinfer,\n gpu: cpu0}", "{name: scheinfer,\n threads: 64}",
                           "{name: fiddler,\n memory: 100GB}", "{name: scheinfer,\n memory: 1MB}"}) {
    try {
      run_placer(spec, p);
      ADD_FAILURE() << "accepted " << spec;
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().line, 2) << e.what();
    }
  }
}

}  // namespace
