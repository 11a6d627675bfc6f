// lower(): what a plan becomes in the engine, checked through simulated times derived by hand
// from the topology's own figures.
#include <fstream>
#include <gtest/gtest.h>

#include "hw/route_cost.hpp"
#include "hw/topology_yaml.hpp"
#include "models/graph_json.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/json.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;
using scheduler::Problem;

Problem problem(const std::string& graph_json, const std::string& hardware, scheduler::WeightsMode w) {
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node(hardware), "test")));
  p.graph = std::make_shared<const models::Graph>(models::parse_graph(Json::load_string(graph_json, "g.json")));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = w;
  return p;
}

double makespan(const Problem& p, const std::vector<std::pair<std::string, std::string>>& where) {
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  for (auto& [op, dev] : where) device_of[p.graph->find(op)] = p.topo->find(dev);
  const auto plan = scheduler::build_plan(p, "test", device_of, p.graph->ops());
  return to_seconds(engine::simulate(scheduler::lower(p, plan).graph).makespan);
}

// Two parameters of S bytes, each read by a zero-time op.
const char* kTwoCopies =
    R"({"nodes": [{"name": "w0", "param_bytes": 1.2e9}, {"name": "w1", "param_bytes": 1.2e9},
                  {"name": "a", "durations": {"gpu0": 0, "gpu1": 0, "gpu2": 0}},
                  {"name": "b", "durations": {"gpu0": 0, "gpu1": 0, "gpu2": 0}}],
        "edges": [{"src": "w0", "dst": "a"}, {"src": "w1", "dst": "b"}]})";

TEST(Lower, TwoCopiesOnOneBusTakeTwiceAsLongAsOnTwoBuses) {
  const Problem p = problem(kTwoCopies, "sortinghat-v100", scheduler::WeightsMode::Host);
  const hw::Topology& t = *p.topo;
  // Independent expectation from the preset: the route host -> gpu0 has latency L and its
  // slowest hop B; alone a copy takes L + S/B; two sharing the uplink take L + 2S/B.
  const hw::RouteCost r = hw::route_cost(t, t.host_memory_for(t.find("gpu0")), t.find("gpu0"));
  const double B = r.bandwidth, S = 1.2e9, L = r.latency_s;
  const double separate = makespan(p, {{"a", "gpu0"}, {"b", "gpu2"}});
  const double shared = makespan(p, {{"a", "gpu0"}, {"b", "gpu1"}});
  EXPECT_NEAR(separate, L + S / B, 1e-9 * separate);
  EXPECT_NEAR(shared, L + 2 * S / B, 1e-9 * shared);
  EXPECT_NEAR(shared - L, 2 * (separate - L), 1e-9 * shared);
}

TEST(Lower, ResidentWeightsCostNoTransfer) {
  const Problem p = problem(kTwoCopies, "sortinghat-v100", scheduler::WeightsMode::Resident);
  EXPECT_EQ(makespan(p, {{"a", "gpu0"}, {"b", "gpu1"}}), 0.0);
}

// Classic list-scheduling model: explicit durations, fixed edge times, ideal network.
const char* kIdeal = "name: ideal\nnetwork: ideal\ndevices:\n"
                     "  - {id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}\n"
                     "  - {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}\n";

TEST(Lower, FixedEdgeTimesApplyAcrossDevicesOnly) {
  const std::string dir = ::testing::TempDir();
  const std::string hw_path = dir + "/ideal.yaml";
  std::ofstream(hw_path) << kIdeal;
  const char* g = R"({"nodes": [{"name": "a", "durations": {"p1": 2, "p2": 3}},
                               {"name": "b", "durations": {"p1": 4, "p2": 1}}],
                     "edges": [{"src": "a", "dst": "b", "time": 5}]})";
  const Problem p = problem(g, hw_path, scheduler::WeightsMode::Resident);
  EXPECT_DOUBLE_EQ(makespan(p, {{"a", "p1"}, {"b", "p1"}}), 2 + 4);      // same device: no edge cost
  EXPECT_DOUBLE_EQ(makespan(p, {{"a", "p1"}, {"b", "p2"}}), 2 + 5 + 1);  // across: the fixed time
}

// One producer feeding several consumers on another device over edges of different fixed times:
// one delivery waits the shortest, and each longer edge the rest in a task of its own, which its
// consumer waits for. a (2 s on p1) feeds c1..c8 (0.1 s each on p2) over edges of 1..8 s, so ck
// starts at 2 + k (its edge, later than c(k-1)'s end) and c8 ends at 10.1 s. (Each consumer's
// dependency list was once held by reference while those tasks were added; when the task list
// grew, the waits were written into freed memory and the consumers all started at 3 s.)
TEST(Lower, EachFixedEdgeTimeHoldsItsOwnConsumer) {
  const std::string dir = ::testing::TempDir();
  const std::string hw_path = dir + "/ideal.yaml";
  std::ofstream(hw_path) << kIdeal;
  std::string g = R"({"nodes": [{"name": "a", "durations": {"p1": 2, "p2": 2}})";
  std::string edges;
  std::vector<std::pair<std::string, std::string>> placement{{"a", "p1"}};
  for (int k = 1; k <= 8; ++k) {
    const std::string c = "c" + std::to_string(k);
    g += R"(, {"name": ")" + c + R"(", "durations": {"p1": 0.1, "p2": 0.1}})";
    edges += std::string(k > 1 ? ", " : "") + R"({"src": "a", "dst": ")" + c + R"(", "time": )" + std::to_string(k) + "}";
    placement.emplace_back(c, "p2");
  }
  g += R"(], "edges": [)" + edges + "]}";
  const Problem p = problem(g.c_str(), hw_path, scheduler::WeightsMode::Resident);
  EXPECT_NEAR(makespan(p, placement), 2 + 8 + 0.1, 1e-12);
}

TEST(Lower, PlanJsonRoundTrips) {
  const Problem p = problem(kTwoCopies, "sortinghat-v100", scheduler::WeightsMode::Host);
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  device_of[p.graph->find("a")] = p.topo->find("gpu0");
  device_of[p.graph->find("b")] = p.topo->find("gpu3");
  const auto plan = scheduler::build_plan(p, "test", device_of, p.graph->ops());
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  const auto back = scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
  EXPECT_EQ(back.device_of, plan.device_of);
  EXPECT_EQ(back.queues, plan.queues);
}

// An op named with an '@' (as NODE@DEVICE names a delivery) is still its own compute item: the
// plan `placesim plan` writes for it is one `simulate` reads back.
TEST(Lower, PlanOfOpsNamedWithAnAtReadsBack) {
  const Problem p = problem(R"({"nodes": [{"name": "w@0", "param_bytes": 1e6},
                                          {"name": "a@gpu1", "durations": {"gpu0": 1e-3, "gpu1": 1e-3}}],
                                "edges": [{"src": "w@0", "dst": "a@gpu1"}]})",
                            "sortinghat-v100", scheduler::WeightsMode::Host);
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  device_of[p.graph->find("a@gpu1")] = p.topo->find("gpu0");
  const auto plan = scheduler::build_plan(p, "test", device_of, p.graph->ops());
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  const auto back = scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
  EXPECT_EQ(back.device_of, plan.device_of);
  EXPECT_EQ(back.queues, plan.queues);
}

TEST(Lower, PlanErrorsAreInputErrors) {
  const Problem p = problem(kTwoCopies, "sortinghat-v100", scheduler::WeightsMode::Host);
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  device_of[p.graph->find("a")] = device_of[p.graph->find("b")] = p.topo->find("gpu0");
  auto plan = scheduler::build_plan(p, "test", device_of, p.graph->ops());
  auto missing = plan;
  for (auto& q : missing.queues)
    if (q.name == "gpu0.h2d") q.items.pop_back();
  EXPECT_THROW(scheduler::lower(p, missing), InputError);
  auto twice = plan;
  twice.queues[0].items.push_back(twice.queues[0].items.front());
  EXPECT_THROW(scheduler::lower(p, twice), InputError);
  // A queue order that contradicts the dependencies cannot finish: the executor says so.
  const char* chain = R"({"nodes": [{"name": "x", "durations": {"gpu0": 1}}, {"name": "y", "durations": {"gpu0": 1}}],
                          "edges": [{"src": "x", "dst": "y"}]})";
  const Problem q = problem(chain, "sortinghat-v100", scheduler::WeightsMode::Resident);
  std::vector<int> d2(q.graph->nodes.size(), q.topo->find("gpu0"));
  auto reversed = scheduler::build_plan(q, "test", d2, q.graph->ops());
  std::swap(reversed.queues[0].items[0], reversed.queues[0].items[1]);
  EXPECT_THROW(engine::simulate(scheduler::lower(q, reversed).graph), InputError);
}

}  // namespace
