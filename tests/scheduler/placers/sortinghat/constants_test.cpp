// The MILP's constants under its two topology ablations, worked by hand on three GPUs with
// host links of 10, 20 and 40 GB/s and an NVLink of 50 GB/s between gpu0 and gpu1 (every
// latency 0, no 3.4 adjustment): each switch changes exactly the constants it names.
#include <gtest/gtest.h>

#include <numeric>

#include "graphs.hpp"
#include "scheduler/placers/sortinghat/sortinghat_constants.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace sortinghat_test {
namespace {

using namespace placers_test;
using scheduler::sortinghat::ShConfig;

constexpr const char* kMachine = R"(devices:
  - {id: host, type: host_memory, memory: 64GiB}
  - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 15TFLOPS}
  - {id: gpu1, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 15TFLOPS}
  - {id: gpu2, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 15TFLOPS}
links:
  - {a: host, b: gpu0, bw: 10GB/s, latency: 0us, kind: pcie}
  - {a: host, b: gpu1, bw: 20GB/s, latency: 0us, kind: pcie}
  - {a: host, b: gpu2, bw: 40GB/s, latency: 0us, kind: pcie}
  - {a: gpu0, b: gpu1, bw: 50GB/s, latency: 0us, kind: nvlink}
)";

// One op reading a 4 MB weight; it takes 100, 200 and 600 us on gpu0, gpu1, gpu2.
scheduler::Problem one_op() {
  GraphSpec spec;
  spec.ops = 1;
  spec.param_bytes = 4e6;
  spec.seconds = {1e-4};
  spec.gpus = {"gpu0", "gpu1", "gpu2"};
  models::Graph g = make_graph(spec);
  models::Node& op = g.nodes[static_cast<size_t>(g.find("op0"))];
  op.durations["gpu1"] = 2e-4;
  op.durations["gpu2"] = 6e-4;
  return problem(std::move(g), hw::load_topology_text(kMachine, "three.yaml"), scheduler::WeightsMode::Host);
}

scheduler::sortinghat::SubInput constants(const scheduler::Problem& p, const ShConfig& cfg) {
  models::Submodel sm{*p.graph, std::vector<int>(p.graph->nodes.size())};
  std::iota(sm.original.begin(), sm.original.end(), 0);
  return submodel_input(p, machine(p, cfg), cfg, sm);
}

ShConfig no_adjust() {
  ShConfig cfg;
  cfg.adjust = false;
  return cfg;
}

// Input node index of the graph node named `name`.
int node(const scheduler::sortinghat::SubInput& s, const scheduler::Problem& p, const char* name) {
  for (size_t x = 0; x < s.node_of.size(); ++x)
    if (s.node_of[x] == p.graph->find(name)) return static_cast<int>(x);
  return -1;
}

TEST(SortingHatConstants, TopologyUnawareAveragesEveryTransferSpeedAndNothingElse) {
  const scheduler::Problem p = one_op();
  ShConfig cfg = no_adjust();
  const auto aware = scheduler::sortinghat::machine(p, cfg);
  // Host -> GPU: 1 / 10, 1 / 20, 1 / 40 GB/s. GPU -> GPU: gpu0-gpu1 over NVLink (1 / 50 GB/s);
  // gpu0-gpu2 through host memory at its slowest hop, 10 GB/s; gpu1-gpu2 at 20 GB/s.
  EXPECT_DOUBLE_EQ(aware.t0[0], 1e-10);
  EXPECT_DOUBLE_EQ(aware.t0[1], 5e-11);
  EXPECT_DOUBLE_EQ(aware.t0[2], 2.5e-11);
  EXPECT_DOUBLE_EQ(aware.t[0][1], 2e-11);
  EXPECT_DOUBLE_EQ(aware.t[0][2], 1e-10);
  EXPECT_DOUBLE_EQ(aware.t[1][2], 5e-11);
  cfg.topology_aware = false;
  const auto unaware = scheduler::sortinghat::machine(p, cfg);
  // Every host -> GPU speed the mean of the three: (10 + 5 + 2.5) / 3 x 1e-11 s per byte; every
  // ordered pair the mean of the six, each pair's time twice: (2 + 10 + 5) / 3 x 1e-11.
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(unaware.t0[i], 17.5e-11 / 3) << i;
    for (int i2 = 0; i2 < 3; ++i2) {
      if (i2 == i) continue;
      EXPECT_DOUBLE_EQ(unaware.t[i][i2], 17e-11 / 3) << i << "->" << i2;
    }
  }
  // The ops' times are the GPUs' own.
  const auto sub = constants(p, cfg);
  EXPECT_EQ(sub.in.p_gpu[node(sub, p, "op0")], (std::vector<double>{1e-4, 2e-4, 6e-4}));
}

TEST(SortingHatConstants, GpusAlikeAverageEveryOpTimeAndNothingElse) {
  const scheduler::Problem p = one_op();
  ShConfig cfg = no_adjust();
  const auto aware = constants(p, cfg);
  const int op = node(aware, p, "op0"), w = node(aware, p, "w0");
  // P^DHA = max(P^GPU, 4 MB x T_0): max(100, 400), max(200, 200), max(600, 100) us.
  EXPECT_EQ(aware.in.p_gpu[op], (std::vector<double>{1e-4, 2e-4, 6e-4}));
  EXPECT_DOUBLE_EQ(aware.in.p_dha[op][0], 4e-4);
  EXPECT_DOUBLE_EQ(aware.in.p_dha[op][1], 2e-4);
  EXPECT_DOUBLE_EQ(aware.in.p_dha[op][2], 6e-4);
  cfg.gpu_aware = false;
  const auto alike = constants(p, cfg);
  // Each the mean over the three GPUs: P^GPU (100 + 200 + 600) / 3 = 300 us, P^DHA (400 + 200 +
  // 600) / 3 = 400 us; the weight's copy still 400, 200, 100 us over each GPU's own link.
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(alike.in.p_gpu[op][i], 3e-4) << i;
    EXPECT_DOUBLE_EQ(alike.in.p_dha[op][i], 4e-4) << i;
    EXPECT_DOUBLE_EQ(alike.in.dt_s[w][i], aware.in.dt_s[w][i]) << i;
  }
  EXPECT_DOUBLE_EQ(alike.in.dt_s[w][0], 4e-4);
  EXPECT_DOUBLE_EQ(alike.in.dt_s[w][2], 1e-4);
}

}  // namespace
}  // namespace sortinghat_test
