// The critical-path bound's terms (scheduler/placers/critical_path.cpp), each worked by hand.
#include <gtest/gtest.h>

#include "hw/max_flow.hpp"
#include "models/graph_json.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

// host (DRAM 10 GB/s) - 10 GB/s - cpu (one core, 1 TFLOPS); host - 1 GB/s - gpu.
const char* kMachine = R"(devices:
  - {id: host, type: host_memory, memory: 64GiB, memory_bw: 10GB/s}
  - {id: cpu, type: cpu, cores: 1, fp32: 1TFLOPS, memory_bw: 10GB/s}
  - {id: gpu, type: gpu, memory: 16GiB, memory_bw: 1TB/s, fp32: 100TFLOPS}
links: [{a: host, b: cpu, bw: 10GB/s}, {a: host, b: gpu, bw: 1GB/s}]
)";

// a (1e12 flops) reads wa, b (1e11 flops) reads wb, 1 GB each, independent.
scheduler::Problem two_ops(const std::string& machine = kMachine) {
  return problem(models::parse_graph(Json::load_string(R"({"nodes": [
    {"name": "wa", "param_bytes": 1e9}, {"name": "wb", "param_bytes": 1e9},
    {"name": "a", "flops": 1e12}, {"name": "b", "flops": 1e11}],
    "edges": [{"src": "wa", "dst": "a", "bytes": 1e9}, {"src": "wb", "dst": "b", "bytes": 1e9}]})", "g.json")),
                 hw::load_topology_text(machine, "m.yaml"), scheduler::WeightsMode::Host);
}

TEST(MaxFlow, TheNarrowestCutBetweenThem) {
  const hw::Topology t = hw::load_topology_text(kMachine, "m.yaml");
  const int host = t.index("host"), cpu = t.index("cpu"), gpu = t.index("gpu");
  EXPECT_DOUBLE_EQ(hw::max_flow(t, {host}, {gpu}), 1e9);
  EXPECT_DOUBLE_EQ(hw::max_flow(t, {host}, {cpu}), 10e9);
  EXPECT_DOUBLE_EQ(hw::max_flow(t, {host}, {cpu, gpu}), 10e9);  // the host's DRAM: 10 GB/s in all
  EXPECT_DOUBLE_EQ(hw::max_flow(t, {gpu}, {cpu}), 1e9);         // gpu -> host -> cpu
}

TEST(CriticalPathBound, WeightsCrossTheHostsLinksOrKeepTheCpuBusy) {
  // Every byte crosses host's 10 GB/s: 2 GB in 0.2 s. On the GPU side 1 GB/s, so all on the
  // GPU is 2 s; the CPU runs b (1 GB saved per 0.1 s) first: CPU 0.1 s, GPU 1 s; then a (1 GB
  // per 1 s) in part, y = (1 - 0.1) / (1 + 1) = 0.45: both 0.55 s. The best plans take 1 s
  // (b on the CPU, a's weights over the 1 GB/s link; or a on the CPU), above it.
  const auto p = two_ops();
  EXPECT_NEAR(*run_placer("critical-path", p).predicted_s, 0.55, 1e-12);
  for (const char* placer : {"heft", "single-device", "{name: single-device, device: cpu}"}) {
    const auto r = run_placer(placer, p);
    EXPECT_GE(simulate(p, *r.plan).makespan, 0.55) << placer;
  }
}

TEST(CriticalPathBound, WithResidentWeightsOnlyThePathCounts) {
  auto p = two_ops();
  p.weights = scheduler::WeightsMode::Resident;
  // a on the GPU: 1e12 / 100e12 = 0.01 s, the longest path.
  EXPECT_NEAR(*run_placer("critical-path", p).predicted_s, 0.01, 1e-12);
}

TEST(CriticalPathBound, EveryDispatchOnTheRuntimesThreads) {
  // 1 ms per dispatch on both devices, two threads: 2 x 1 ms / 2 = 1 ms, below the path (a on
  // the GPU, 10 ms). With 1000x fewer flops the path is 10 us and the dispatches bound it: 1 ms.
  std::string m = kMachine;
  m.replace(m.find("fp32: 1TFLOPS"), 13, "fp32: 1TFLOPS, dispatch: 1ms");
  m.replace(m.find("fp32: 100TFLOPS"), 15, "fp32: 100TFLOPS, dispatch: 1ms");
  auto p = two_ops("runtime: {dispatch_threads: 2}\n" + m);
  p.weights = scheduler::WeightsMode::Resident;
  EXPECT_NEAR(*run_placer("critical-path", p).predicted_s, 0.01, 1e-12);  // the path, 10 ms
  auto g = *p.graph;
  for (auto& n : g.nodes) n.flops /= 1000;
  p.graph = std::make_shared<const models::Graph>(g);
  const auto r = run_placer("critical-path", p);
  EXPECT_NEAR(*r.predicted_s, 1e-3, 1e-12);  // 2 x 1 ms over 2 threads
  EXPECT_NE(r.message.find("dispatch"), std::string::npos);
}

}  // namespace
