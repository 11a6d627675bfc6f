// DeepPlan on the SortingHat V100 station (two GPUs per PCIe bus, NVLink between all GPUs).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

TEST(DeepPlan, SplitsCopiesOverTheOtherBusAndReadsTheFirstWeightsDirectly) {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 4;
  spec.seq = 128;
  const auto p = problem(models::generate_transformer(spec), hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")),
                         scheduler::WeightsMode::Host);
  const auto r = run_placer("deepplan", p);
  ASSERT_TRUE(r.plan);
  const auto& topo = *p.topo;
  const int gpu = r.plan->device_of[p.graph->ops().front()];
  for (int op : p.graph->ops()) EXPECT_EQ(r.plan->device_of[op], gpu);  // no model parallelism
  int dha = 0, parallel = 0;
  for (auto& [key, d] : r.plan->params) {
    if (d.via == scheduler::ParamDelivery::Via::Dha) ++dha;
    if (d.via != scheduler::ParamDelivery::Via::Parallel) continue;
    ++parallel;
    // The neighbour is joined by NVLink and loads over a bus the GPU's own route does not use.
    const int l = topo.link_between(d.neighbour, gpu);
    ASSERT_GE(l, 0);
    EXPECT_EQ(topo.links[l].kind, "nvlink");
    const int host = topo.host_memory_for(gpu);
    for (const hw::RouteRef mine = topo.route(host, gpu); const hw::Hop& a : mine->hops)
      for (const hw::RouteRef theirs = topo.route(host, d.neighbour); const hw::Hop& b : theirs->hops) EXPECT_NE(a.link, b.link);
  }
  // Copies are bus-bound here: reading a weight while computing never ends an op earlier than
  // copying it behind the others, so DeepPlan copies everything.
  EXPECT_EQ(dha, 0);
  EXPECT_GT(parallel, 0);
  const double deepplan = simulate(p, *r.plan).makespan;
  const double single = simulate(p, *run_placer("{name: single-device, device: gpu0}", p).plan).makespan;
  EXPECT_LT(deepplan, single);
}

TEST(DeepPlan, ReadsAWeightDirectlyWhenThatEndsItsOpEarlier) {
  // One op of 10 GFLOP (about 0.64 ms on a V100's 15.7 TFLOPS) reading an 8 MB weight, alone:
  // over a 12 GB/s bus a copy split with the neighbour ends at about 0.33 + 0.64 ms, a direct
  // read at max(0.64, 0.67) ms, so DHA wins.
  const auto g = models::parse_graph(Json::load_string(
      R"({"nodes": [{"name": "w", "param_bytes": 8e6}, {"name": "mm", "type": "matmul", "flops": 1e10, "bytes": 1e6}],
          "edges": [{"src": "w", "dst": "mm"}]})", "g.json"));
  const auto p = problem(g, hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
  const auto r = run_placer("deepplan", p);
  ASSERT_EQ(r.plan->params.size(), 1u);
  EXPECT_EQ(r.plan->params.begin()->second.via, scheduler::ParamDelivery::Via::Dha);
  const double simulated = simulate(p, *r.plan).makespan;
  EXPECT_NEAR(*r.predicted_s, simulated, 0.05 * simulated);  // alone on the bus: only latency differs
}

// parallel: blocks (DeepPlan's own), without DHA: four ops in a chain, each copying an 80 MB
// weight, S = 320 MB over two routes (the GPU's own
// bus and one neighbour's): blocks of 160 MB, the first two weights over the own bus, the last
// two whole through the neighbour and NVLink (fraction 1); nothing split. The prediction is the
// simulation's, both routes streaming at once.
TEST(DeepPlan, BlocksSendWholeWeightsOneBlockPerRoute) {
  std::string nodes, edges;
  for (int i = 0; i < 4; ++i) {
    nodes += (i ? ", " : "") + fmt::format(R"({{"name": "w{0}", "param_bytes": 8e7}}, {{"name": "op{0}", "type": "matmul", "flops": 1e9, "bytes": 1e6}})", i);
    edges += (i ? ", " : "") + fmt::format(R"({{"src": "w{0}", "dst": "op{0}"}})", i);
    if (i) edges += fmt::format(R"(, {{"src": "op{}", "dst": "op{}"}})", i - 1, i);
  }
  const auto g = models::parse_graph(Json::load_string("{\"nodes\": [" + nodes + "], \"edges\": [" + edges + "]}", "g.json"));
  const auto p = problem(g, hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
  const auto r = run_placer("{name: deepplan, parallel: blocks, dha: false}", p);
  ASSERT_TRUE(r.plan);
  const int gpu = r.plan->device_of[p.graph->ops().front()];
  for (int i = 0; i < 4; ++i) {
    const int w = p.graph->find("w" + std::to_string(i));
    const scheduler::ParamDelivery d = r.plan->delivery(w, gpu);
    if (i < 2) {
      EXPECT_EQ(d.via, scheduler::ParamDelivery::Via::Copy) << i;
    } else {
      EXPECT_EQ(d.via, scheduler::ParamDelivery::Via::Parallel) << i;
      EXPECT_EQ(d.fraction, 1.0) << i;
      EXPECT_EQ(r.plan->delivery(p.graph->find("w2"), gpu).neighbour, d.neighbour);
    }
  }
  const double simulated = simulate(p, *r.plan).makespan;
  EXPECT_NEAR(*r.predicted_s, simulated, 0.01 * simulated);
  // Two routes at once beat the own bus alone (every weight after the other on it).
  const auto split_free = run_placer("{name: deepplan, parallel: false, dha: false}", p);
  EXPECT_LT(simulated, simulate(p, *split_free.plan).makespan);
}

// DeepPlan's own rule with its blocks: an embedding op's tables by DHA whatever else reads them,
// so GPT-2's tied table (read by the lm_head too) is never copied and the lm_head reads it again
// over the route, which the prediction counts (within 1% of the simulation).
TEST(DeepPlan, BlocksReadEmbeddingsDirectlyAsDeepPlanDoes) {
  const auto p = problem(gpt2_large_2_layers(models::Phase::Prefill),
                         hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
  const auto r = run_placer("{name: deepplan, parallel: blocks}", p);
  ASSERT_TRUE(r.plan);
  const int gpu = r.plan->device_of[p.graph->ops().front()];
  for (const char* table : {"embed.wte", "embed.wpe"})
    EXPECT_EQ(r.plan->delivery(p.graph->find(table), gpu).via, scheduler::ParamDelivery::Via::Dha) << table;
  const double simulated = simulate(p, *r.plan).makespan;
  EXPECT_NEAR(*r.predicted_s, simulated, 0.01 * simulated);
  // The default (every weight split) copies the tied table: its lm_head is a second reader.
  const auto split = run_placer("deepplan", p);
  EXPECT_NE(split.plan->delivery(p.graph->find("embed.wte"), gpu).via, scheduler::ParamDelivery::Via::Dha);
}

TEST(DeepPlan, ParallelIsTrueFalseOrBlocks) {
  const auto p = problem(gpt2_large_2_layers(models::Phase::Prefill),
                         hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
  try {
    run_placer("{name: deepplan, parallel: halves}", p);
    ADD_FAILURE() << "accepted parallel: halves";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("parallel must be true, false or blocks, got 'halves'"), std::string::npos)
        << e.what();
  }
}

TEST(DeepPlan, WithoutDhaOrParallelItIsSingleDevice) {
  models::TransformerSpec spec;
  spec.layers = 2;
  const auto p = problem(models::generate_transformer(spec), hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")),
                         scheduler::WeightsMode::Host);
  const auto r = run_placer("{name: deepplan, dha: false, parallel: false}", p);
  EXPECT_TRUE(r.plan->params.empty());
  const auto single = run_placer("{name: single-device, device: gpu0}", p);
  EXPECT_DOUBLE_EQ(simulate(p, *r.plan).makespan, simulate(p, *single.plan).makespan);
}

}  // namespace
