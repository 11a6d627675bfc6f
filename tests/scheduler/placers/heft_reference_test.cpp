// heft_schedule against HEFT as the paper states it, with nothing indexed, gathered or skipped:
// every op tried on every device, each input's arrival priced with CommModel::edge_time on the
// spot, each device's busy list a sorted vector scanned gap by gap. The two must place every op
// on the same device at the same start and finish, to the bit, on seeded random instances:
// random layered DAGs on 8 and 64 GPUs of four speeds (contended gaps, insertion on and off),
// fixed edge times on an ideal network, and a transformer whose parameters are copied from host
// memory (the copies' arrival in the EST).
#include <gtest/gtest.h>

#include <algorithm>
#include <fmt/format.h>
#include <utility>
#include <vector>

#include "scheduler/placers/heft.hpp"
#include "gap_scan.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;
using scheduler::Schedule;

Schedule textbook_heft(const scheduler::Problem& p, const std::vector<int>& devices, bool insertion) {
  const models::Graph& g = *p.graph;
  const scheduler::CommModel comm(p);
  const std::vector<double> rank = scheduler::upward_rank(p, comm, devices);
  std::vector<int> pos(g.nodes.size());
  for (size_t k = 0; k < g.topo_order().size(); ++k) pos[g.topo_order()[k]] = static_cast<int>(k);
  std::vector<int> ops = g.ops();
  std::stable_sort(ops.begin(), ops.end(), [&](int a, int b) { return rank[a] != rank[b] ? rank[a] > rank[b] : pos[a] < pos[b]; });
  Schedule s(p);
  std::vector<std::vector<std::pair<double, double>>> busy(p.topo->devices.size());
  for (int v : ops) {
    int best = -1;
    double best_start = 0, best_finish = models::kCannotRun;
    for (int d : devices) {
      const double w = p.duration(v, d);
      if (w == models::kCannotRun) continue;
      double ready = s.copies.arrival(v, d);
      for (int e : g.in_edges(v)) {
        const int u = g.edges[e].src;
        if (g.nodes[u].kind == models::NodeKind::Op) ready = std::max(ready, s.finish[u] + comm.edge_time(e, s.device_of[u], d));
      }
      const double est = scan_insertion(busy[d], ready, w, insertion);
      if (est + w < best_finish) best = d, best_start = est, best_finish = est + w;
    }
    auto& b = busy[best];
    b.insert(std::upper_bound(b.begin(), b.end(), std::pair{best_start, best_finish}), {best_start, best_finish});
    s.place(v, best, best_start, best_finish);
  }
  return s;
}

// Returns the parameter copies the schedules booked.
size_t expect_same_schedule(const scheduler::Problem& p, bool insertion) {
  const std::vector<int> devices = p.topo->compute_devices();
  const Schedule got = scheduler::heft_schedule(p, devices, insertion);
  const Schedule want = textbook_heft(p, devices, insertion);
  for (int v : p.graph->ops()) {
    EXPECT_EQ(got.device_of[v], want.device_of[v]) << p.graph->nodes[v].name;
    EXPECT_EQ(got.start[v], want.start[v]) << p.graph->nodes[v].name;
    EXPECT_EQ(got.finish[v], want.finish[v]) << p.graph->nodes[v].name;
  }
  EXPECT_EQ(got.makespan, want.makespan);
  EXPECT_EQ(got.copies.booked().size(), want.copies.booked().size());
  return want.copies.booked().size();
}

// `gpus` GPUs of 10, 20, 30 and 40 TFLOPS behind one PCIe switch, with a host memory.
hw::Topology switch_of_gpus(int gpus) {
  std::string devices = "devices:\n  - {id: host, type: host_memory, memory: 512GiB, memory_bw: 100GB/s}\n"
                        "  - {id: sw, type: switch}\n";
  std::string links = "links:\n  - {a: host, b: sw, bw: 32GB/s, latency: 2us}\n";
  for (int i = 0; i < gpus; ++i) {
    devices += fmt::format("  - {{id: gpu{}, type: gpu, fp32: {}TFLOPS, memory_bw: 900GB/s, memory: 80GB}}\n", i,
                           10 + 10 * (i % 4));
    links += fmt::format("  - {{a: gpu{}, b: sw, bw: 16GB/s, latency: 1us}}\n", i);
  }
  return hw::load_topology_text(devices + links, "switch.yaml");
}

TEST(HeftReference, RandomDagsOnEightAndSixtyFourGpus) {
  for (int gpus : {8, 64})
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      models::RandomDagSpec spec;
      spec.seed = seed;
      spec.depth = 40;
      spec.width = 3 * gpus / 2;  // wider than the devices: ops wait, gaps open and fill
      spec.density = 3.0 / spec.width;
      spec.ccr = seed == 1 ? 0.1 : seed == 2 ? 1 : 10;
      const auto p = problem(models::generate_random_dag(spec), switch_of_gpus(gpus));
      for (bool insertion : {true, false}) {
        SCOPED_TRACE(fmt::format("{} GPUs, seed {}, insertion {}", gpus, seed, insertion));
        expect_same_schedule(p, insertion);
      }
    }
}

TEST(HeftReference, FixedEdgeTimesOnAnIdealNetwork) {
  const auto topo = hw::load_topology_text(
      "network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
      " {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
      " {id: p3, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n",
      "ideal.yaml");
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    models::RandomDagSpec spec;
    spec.seed = seed;
    spec.depth = 30;
    spec.width = 6;
    spec.density = 0.3;
    spec.devices = {"p1", "p2", "p3"};
    spec.beta = 1;
    SCOPED_TRACE(fmt::format("seed {}", seed));
    expect_same_schedule(problem(models::generate_random_dag(spec), topo), true);
  }
}

TEST(HeftReference, ParameterCopiesFromHostMemory) {
  for (int gpus : {2, 4}) {
    SCOPED_TRACE(fmt::format("{} GPUs", gpus));
    const auto p =
        problem(gpt2_large_2_layers(models::Phase::Prefill), switch_of_gpus(gpus), scheduler::WeightsMode::Host);
    EXPECT_GT(expect_same_schedule(p, true), 0u);
  }
}

}  // namespace
