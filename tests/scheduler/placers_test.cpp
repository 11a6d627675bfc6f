// The built-in placers and their registry, one conformance suite over every placer (as ns-3
// runs one suite over every scheduler): each plan lowers and runs, and no simulated makespan of
// a whole-op placer is below the critical-path bound.
#include <gtest/gtest.h>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"
#include "scheduler/lower.hpp"
#include "scheduler/placer.hpp"
#include "sim/engine/executor.hpp"
#include "tests/placers/support.hpp"

namespace {

using namespace placesim;
using scheduler::Problem;

Problem make_problem(models::Graph g, const std::string& hardware, scheduler::WeightsMode w) {
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node(hardware), "test")));
  p.graph = std::make_shared<const models::Graph>(std::move(g));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = w;
  return p;
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

TEST(Placers, EveryPlanRunsAndNoneBeatsTheBound) {
  struct Case {
    const char* arch;
    models::Phase phase;
    models::Granularity gran;
    scheduler::WeightsMode weights;
    const char* hardware;
  };
  const std::vector<Case> cases = {
      {"gpt2-large", models::Phase::Prefill, models::Granularity::Op, scheduler::WeightsMode::Host, "sortinghat-v100"},
      {"gpt2-xl", models::Phase::Decode, models::Granularity::Op, scheduler::WeightsMode::Resident, "sortinghat-v100"},
      {"openllama-3b", models::Phase::Prefill, models::Granularity::Layer, scheduler::WeightsMode::Host,
       "pcie-4gpu-2bus"},
      {"llama2-7b", models::Phase::Decode, models::Granularity::Layer, scheduler::WeightsMode::Resident,
       "pcie-4gpu-2bus"},
  };
  for (const Case& c : cases) {
    models::TransformerSpec spec;
    spec.arch = c.arch;
    spec.phase = c.phase;
    spec.granularity = c.gran;
    spec.layers = 4;
    spec.seq = 64;
    const Problem p = make_problem(models::generate_transformer(spec), c.hardware, c.weights);
    const double cp = bound(p);
    EXPECT_GT(cp, 0.0);
    for (auto& [name, entry] : scheduler::placers().all()) {
      if (entry.kind == scheduler::PlacerKind::Bound || entry.kind == scheduler::PlacerKind::Given) continue;
      // Tensor-parallel placers split the ops of op-granularity graphs (and refuse layer blocks);
      // the bound keeps ops whole, so it does not bound them.
      if (entry.splits_ops && c.gran == models::Granularity::Layer) continue;
      // Offload placers slice or move FFN experts: op-granularity decoders only (their own tests).
      if (entry.offload && c.gran == models::Granularity::Layer) continue;
      // MILP placers get a quarter second each: their plans are checked here, not their optimality.
      const auto spec_p = scheduler::make_placer(Yaml::load_string(placers_test::suite_spec(name), "t"));
      const auto r = spec_p.placer->place(p);
      if (name == "milp-moirai" && c.weights == scheduler::WeightsMode::Host) {
        EXPECT_EQ(r.status, scheduler::RunStatus::Error) << "MOIRAI has no parameter copies";
        continue;
      }
      ASSERT_TRUE(r.plan) << name << ": " << r.status << ": " << r.message;
      const auto low = scheduler::lower(p, *r.plan);
      const double makespan = to_seconds(engine::simulate(low.graph).makespan);
      if (!entry.splits_ops && !entry.offload) {
        EXPECT_GE(makespan, cp) << name << " on " << c.arch;
      }
    }
  }
}

TEST(Placers, RoundRobinDealsLayersInTurn) {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 6;
  spec.granularity = models::Granularity::Layer;
  const Problem p = make_problem(models::generate_transformer(spec), "sortinghat-v100", scheduler::WeightsMode::Host);
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
  const Problem p = make_problem(models::generate_transformer(spec), "sortinghat-v100", scheduler::WeightsMode::Host);
  const auto r = scheduler::make_placer(Yaml(YAML::Node("single-device"), "t")).placer->place(p);
  // All four V100s are equal and faster than the Xeon: the lowest-index GPU wins the tie.
  for (int op : p.graph->ops()) EXPECT_EQ(p.topo->devices[r.plan->device_of[op]].id, "gpu0");
}

}  // namespace
