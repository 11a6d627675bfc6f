// The placer registry, and the smallest placers worked by hand (the conformance suite,
// conformance_test.cpp, holds every placer to the contract).
#include <gtest/gtest.h>

#include "models/graph_json.hpp"
#include "support.hpp"

namespace {

using namespace placesim;
using scheduler::Problem;

Problem on_preset(models::Graph g, const std::string& preset, scheduler::WeightsMode w) {
  return placers_test::problem(std::move(g), hw::load_topology(Yaml(YAML::Node(preset), "test")), w);
}

double bound(const Problem& p) {
  return *scheduler::make_placer(Yaml(YAML::Node("critical-path"), "t")).placer->place(p).predicted_s;
}

TEST(Placers, CriticalPathOfADiamondByHand) {
  // a -> {b, c} -> d with durations on an ideal 2-device network. Fastest per op:
  // a = min(1, 2) = 1, b = min(3, 1) = 1, c = min(2, 5) = 2, d = min(1, 4) = 1.
  // Longest path a, c, d = 1 + 2 + 1 = 4.
  auto topo = hw::load_topology_text(
      "network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
      " {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n", "ideal.yaml");
  auto g = models::parse_graph(Json::load_string(
      R"({"nodes": [{"name": "a", "durations": {"p1": 1, "p2": 2}}, {"name": "b", "durations": {"p1": 3, "p2": 1}},
                    {"name": "c", "durations": {"p1": 2, "p2": 5}}, {"name": "d", "durations": {"p1": 1, "p2": 4}}],
          "edges": [{"src": "a", "dst": "b", "time": 9}, {"src": "a", "dst": "c", "time": 9},
                    {"src": "b", "dst": "d", "time": 9}, {"src": "c", "dst": "d", "time": 9}]})", "g.json"));
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(std::move(topo));
  p.graph = std::make_shared<const models::Graph>(std::move(g));
  p.cost = std::make_shared<const models::RooflineCost>();
  EXPECT_DOUBLE_EQ(bound(p), 4.0);
}

TEST(Placers, RegistryRejectsUnknownNamesAndOptions) {
  EXPECT_THROW(scheduler::make_placer(Yaml::load_string("magic", "s.yaml")), InputError);
  try {
    scheduler::make_placer(Yaml::load_string("{name: round-robin, speed: 3}", "s.yaml"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.yaml:1:28: unknown option 'speed'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(scheduler::make_placer(Yaml::load_string("{name: round-robin, unit: cake}", "s.yaml")), InputError);
}

TEST(Placers, RoundRobinDealsLayersInTurn) {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 6;
  spec.granularity = models::Granularity::Layer;
  const Problem p = on_preset(models::generate_transformer(spec), "sortinghat-v100", scheduler::WeightsMode::Host);
  const auto r = scheduler::make_placer(Yaml::load_string("{name: round-robin, devices: [gpu1, gpu2]}", "s")).placer->place(p);
  const auto& g = *p.graph;
  for (int op : g.ops()) {
    const int layer = g.nodes[op].layer;
    if (layer < 0) continue;
    EXPECT_EQ(p.topo->devices[r.plan->device_of[op]].id, layer % 2 == 0 ? "gpu1" : "gpu2") << g.nodes[op].name;
  }
}

TEST(Placers, SingleDeviceAutoPicksTheFastestDevice) {
  models::TransformerSpec spec;
  spec.layers = 2;
  const Problem p = on_preset(models::generate_transformer(spec), "sortinghat-v100", scheduler::WeightsMode::Host);
  const auto r = scheduler::make_placer(Yaml(YAML::Node("single-device"), "t")).placer->place(p);
  // All four V100s are equal and faster than the Xeon: the lowest-index GPU wins the tie.
  for (int op : p.graph->ops()) EXPECT_EQ(p.topo->devices[r.plan->device_of[op]].id, "gpu0");
}

}  // namespace
