// DeepPlan on the SortingHat V100 station (two GPUs per PCIe bus, NVLink between all GPUs).
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
    for (const hw::Hop& a : topo.route(host, gpu).hops)
      for (const hw::Hop& b : topo.route(host, d.neighbour).hops) EXPECT_NE(a.link, b.link);
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
