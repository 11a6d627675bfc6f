// scheinfer, llamacpp-offload and fiddler on LLaMA-2 7B (4 layers) and Mixtral 8x7B (2 layers) on
// ScheInfer's Testbed-A, each property worked from the models' own sizes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "models/cost/cost_models.hpp"
#include "models/ffn_blocks.hpp"
#include "scheduler/placers/offload/scheinfer_inputs.hpp"
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

// Fiddler's popularity. Mixtral 8x7B cut to 2 layers, one token: 2 of 8 experts active per layer,
// and room on the GPU for everything else (the placer's estimate: the other ops' weights and state,
// twice the largest activation) and 3.5 experts. `profile` fills it with experts by layer, then
// number, idle ones too, whatever the step routes: layer 0's experts 0, 1, 2, so only the active
// ones among them compute on the GPU. `step` fills it with the experts this step computes: 3 of 4.
TEST(OffloadPlacers, FiddlerPlacesByItsProfileOrByTheStepsRouting) {
  scheduler::Problem p = offload_problem("mixtral-8x7b", models::Phase::Decode, 48e9, 2);
  const models::Graph& g = *p.graph;
  const std::vector<models::FfnBlock> blocks = models::ffn_blocks(g);
  ASSERT_EQ(blocks.size(), 2u);
  std::vector<bool> expert_weight(g.nodes.size(), false), expert_op(g.nodes.size(), false);
  double expert = 0;
  for (int w : blocks[0].experts[0].weights) expert += g.nodes[w].param_bytes;
  for (const models::FfnBlock& b : blocks)
    for (const models::FfnExpert& x : b.experts) {
      for (int w : x.weights) expert_weight[w] = true;
      for (int op : x.gemms) expert_op[op] = true;
    }
  double other = 0, largest_output = 0;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const models::Node& node = g.nodes[n];
    if (node.kind == models::NodeKind::Param && !expert_weight[n]) other += node.param_bytes;
    if (node.kind == models::NodeKind::Op) {
      other += node.state_bytes;
      largest_output = std::max(largest_output, node.output_bytes);
    }
  }
  const double memory = other + 2 * largest_output + 3.5 * expert;
  auto on_gpu = [&](const scheduler::Plan& plan, const models::FfnExpert& x) {
    return plan.device_of[x.gemms.front()] == p.topo->index("gpu0");
  };
  for (const char* popularity : {"profile", "step"}) {
    SCOPED_TRACE(popularity);
    const auto r = run_placer(fmt::format("{{name: fiddler, memory: {:.0f}, popularity: {}}}", memory, popularity), p);
    ASSERT_TRUE(r.plan) << r.message;
    int expected = 0, active_seen = 0;
    for (const models::FfnBlock& b : blocks)
      for (const models::FfnExpert& x : b.experts) {
        if (x.gemms.empty()) continue;
        const bool gpu = popularity == std::string("profile") ? b.layer == 0 && x.index < 3 : active_seen++ < 3;
        expected += gpu;
        EXPECT_EQ(on_gpu(*r.plan, x), gpu) << "layer " << b.layer << " expert " << x.index;
      }
    EXPECT_EQ(r.choices.at("experts_on_gpu").get<int>(), expected);
    EXPECT_EQ(r.choices.at("experts").get<int>(), 4);
  }
}

// `launches: layer`: each FFN block's launch stream starts after its layer's other kernels. A
// LLaMA layer launches seven outside its FFN (ln1, qkv, attn, out, add1, ln2, add2; the FFN's
// up, gate, act and down are the block's), so every block starts at 7 t_Launch (Testbed-A:
// 44 us each); by default at 0, as Eq. 5. With launches free the two options give one plan.
TEST(OffloadPlacers, ScheinferLayerLaunchesStartEachBlockAfterItsLayersOtherKernels) {
  const scheduler::Problem p = offload_problem("llama2-7b", models::Phase::Decode, 2.5e9);
  scheduler::offload::SetupOptions::Setup s;  // the placer's defaults: the first GPU and CPU, all of both
  s.gpu = p.topo->index("gpu0");
  s.cpu = p.topo->index("cpu0");
  s.memory = p.topo->devices[s.gpu].memory;
  const double launch = p.topo->devices[p.topo->index("gpu0")].launch_s;
  ASSERT_DOUBLE_EQ(launch, 44e-6);
  const scheduler::scheinfer::Inputs layer = scheduler::scheinfer::scheinfer_inputs(p, s, {}, true);
  const scheduler::scheinfer::Inputs block = scheduler::scheinfer::scheinfer_inputs(p, s, {});
  ASSERT_EQ(layer.now.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_DOUBLE_EQ(layer.now[i].launch_before, 7 * launch) << i;
    EXPECT_DOUBLE_EQ(layer.generation[i].launch_before, 7 * launch) << i;
    EXPECT_EQ(block.now[i].launch_before, 0) << i;
  }
  hw::Topology free = *p.topo;
  free.devices[free.index("gpu0")].launch_s = 0;
  scheduler::Problem q = p;
  q.topo = std::make_shared<const hw::Topology>(std::move(free));
  EXPECT_EQ(*run_placer("{name: scheinfer, launches: layer}", q).plan, *run_placer("scheinfer", q).plan);
}

TEST(OffloadPlacers, BadOptionsAreErrorsAtTheirKey) {
  for (const char* spec : {"{name: scheinfer,\n threads: 0}", "{name: scheinfer,\n memory: -1GB}",
                           "{name: scheinfer,\n steps: 0}", "{name: llamacpp-offload,\n layers: -1}",
                           "{name: fiddler,\n popularity: oracle}", "{name: scheinfer,\n launches: attention}"}) {
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
