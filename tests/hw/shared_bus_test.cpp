// Contention that follows from where devices sit, checked through lower() and the engine with
// times worked out by hand from the links' figures:
//  * a NIC behind the same PCIe switch as a GPU slows that GPU's copies from host memory while
//    network traffic into the GPU is active (both cross the switch's link into the GPU);
//  * data in the far NUMA node's memory reaches a GPU at the socket link's rate.
#include <gtest/gtest.h>

#include "hw/topology_yaml.hpp"
#include "models/graph_json.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/builder.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;

scheduler::Problem problem(const std::string& topo_yaml, const std::string& graph_json, scheduler::WeightsMode w) {
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology_text(topo_yaml, "t.yaml"));
  p.graph = std::make_shared<const models::Graph>(models::parse_graph(Json::load_string(graph_json, "g.json")));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = w;
  return p;
}

double makespan(const scheduler::Problem& p, const std::vector<std::pair<std::string, std::string>>& where) {
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  for (auto& [op, dev] : where) device_of[p.graph->find(op)] = p.topo->find(dev);
  const auto plan = scheduler::build_plan(p, "test", device_of, p.graph->ops());
  return to_seconds(engine::simulate(scheduler::lower(p, plan).graph).makespan);
}

// Two nodes; in each, host memory, a GPU and a NIC on one PCIe switch (every PCIe link 10 GB/s
// and 0.5 us); the NICs meet at one 20 GB/s, 1 us fabric switch.
const char* kTwoBoxes = R"(
node_templates:
  box:
    devices:
      - {id: host, type: host_memory, memory: 64GiB}
      - {id: pcie0, type: switch}
      - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
      - {id: nic0, type: nic}
    links:
      - {a: host, b: pcie0, bw: 10GB/s, latency: 0.5us, kind: pcie}
      - {a: pcie0, b: gpu0, bw: 10GB/s, latency: 0.5us, kind: pcie}
      - {a: pcie0, b: nic0, bw: 10GB/s, latency: 0.5us, kind: pcie}
nodes: [{template: box, count: 2}]
fabric: {type: switch, link: {bw: 20GB/s, latency: 1us, kind: ib}}
)";

// Op x sends S = 1 GB to op y; w: S bytes of weights read by op a. Every op takes no time; x and
// y come first in each GPU's compute queue, so neither waits behind a's copy.
const char* kCopyAndSend =
    R"({"nodes": [{"name": "x", "durations": {"n0.gpu0": 0, "n1.gpu0": 0}},
                  {"name": "y", "durations": {"n0.gpu0": 0, "n1.gpu0": 0}},
                  {"name": "w", "param_bytes": 1e9},
                  {"name": "a", "durations": {"n0.gpu0": 0, "n1.gpu0": 0}}],
        "edges": [{"src": "w", "dst": "a"}, {"src": "x", "dst": "y", "bytes": 1e9}]})";

TEST(SharedBus, NicTrafficIntoAGpuSlowsItsHostCopies) {
  const auto p = problem(kTwoBoxes, kCopyAndSend, scheduler::WeightsMode::Host);
  const double S = 1e9, B = 10e9;
  const double L_h2d = 0.5e-6 + 0.5e-6;                         // host -> pcie0 -> gpu0
  const double L_net = 0.5e-6 + 0.5e-6 + 1e-6 + 1e-6 + 0.5e-6 + 0.5e-6;  // gpu, pcie, nic, fabric, nic, pcie, gpu
  // Copy alone (y stays on n1 with x: no network traffic): L_h2d + S/B.
  EXPECT_NEAR(makespan(p, {{"a", "n0.gpu0"}, {"x", "n1.gpu0"}, {"y", "n1.gpu0"}}), L_h2d + S / B, 1e-11);
  // Network transfer into n0.gpu0 with a's copy on n1 instead: the copy crosses n1's links
  // into its GPU, the transfer n1's links out of it, so neither slows the other:
  // max(L_h2d, L_net) + S/B.
  EXPECT_NEAR(makespan(p, {{"a", "n1.gpu0"}, {"x", "n1.gpu0"}, {"y", "n0.gpu0"}}), L_net + S / B, 1e-11);
  // Both into n0.gpu0: the link pcie0 -> gpu0 carries 2S. It runs at B from L_h2d on (the copy
  // alone until L_net, then both at B/2 each), and the last byte arrives at L_h2d + 2S/B.
  const double both = makespan(p, {{"a", "n0.gpu0"}, {"x", "n1.gpu0"}, {"y", "n0.gpu0"}});
  EXPECT_NEAR(both, L_h2d + 2 * S / B, 1e-11);
  EXPECT_GT(both, 1.9 * (L_h2d + S / B));
}

// Two sockets, each a CPU with its NUMA node's memory; the GPU hangs off socket 0's memory
// (12 GB/s); the socket link is 8 GB/s.
const char* kTwoSockets = R"(
devices:
  - {id: host0, type: host_memory, memory: 64GiB, numa_node: 0}
  - {id: host1, type: host_memory, memory: 64GiB, numa_node: 1}
  - {id: cpu0, type: cpu, cores: 8, fp32: 1TFLOPS, memory_bw: 50GB/s, numa_node: 0}
  - {id: cpu1, type: cpu, cores: 8, fp32: 1TFLOPS, memory_bw: 50GB/s, numa_node: 1}
  - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}
links:
  - {a: cpu0, b: host0, bw: 50GB/s, kind: memory}
  - {a: cpu1, b: host1, bw: 50GB/s, kind: memory}
  - {a: host0, b: host1, bw: 8GB/s, kind: socket}
  - {a: host0, b: gpu0, bw: 12GB/s, kind: pcie}
)";

TEST(SharedBus, FarNumaNodeIsSlowerByTheLinksRatio) {
  const char* send = R"({"nodes": [{"name": "x", "durations": {"cpu0": 0, "cpu1": 0, "gpu0": 0}},
                                   {"name": "y", "durations": {"cpu0": 0, "cpu1": 0, "gpu0": 0}}],
                         "edges": [{"src": "x", "dst": "y", "bytes": 1.2e9}]})";
  const auto p = problem(kTwoSockets, send, scheduler::WeightsMode::Resident);
  // Near: cpu0 -> host0 -> gpu0, slowest hop 12 GB/s. Far: cpu1 -> host1 -> host0 -> gpu0,
  // slowest hop the socket link, 8 GB/s. No latency: times are S/12e9 and S/8e9, ratio 12/8.
  const double near = makespan(p, {{"x", "cpu0"}, {"y", "gpu0"}});
  const double far = makespan(p, {{"x", "cpu1"}, {"y", "gpu0"}});
  EXPECT_NEAR(near, 1.2e9 / 12e9, 1e-11);
  EXPECT_NEAR(far, 1.2e9 / 8e9, 1e-11);
  EXPECT_NEAR(far / near, 12.0 / 8.0, 1e-9);
}

}  // namespace
