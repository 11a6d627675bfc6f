// HEFT on the example of Topcuoglu, Hariri and Wu (IEEE TPDS 2002, Fig. 2 and Table 1).
#include <gtest/gtest.h>

#include "models/graph_json.hpp"
#include "scheduler/placers/heft.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

// Ten tasks, three processors, the paper's computation costs w(v, p) and edge costs (the time
// an edge takes when its ends sit on different processors): models/examples/topcuoglu.json.
constexpr const char* kThreeProcessors =
    "network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
    " {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
    " {id: p3, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n";

constexpr const char* kTwoProcessors =
    "network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
    " {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n";

scheduler::Problem topcuoglu() {
  return problem(models::load_graph_json(std::string(PLACESIM_SOURCE_DIR) + "/models/examples/topcuoglu.json"),
                 hw::load_topology_text(kThreeProcessors, "ideal.yaml"));
}

TEST(Heft, UpwardRanksOfTheTopcuogluExample) {
  // rank(v) = w-bar(v) + max over successors s of (c(v, s) + rank(s)), w-bar the row mean:
  //   n10 = (21+7+16)/3 = 14.667;  n8 = 10 + 11 + 14.667 = 35.667;  n9 = 16.667 + 13 + 14.667 = 44.333;
  //   n7 = 11 + 17 + 14.667 = 42.667;  n6 = 12.667 + 15 + 35.667 = 63.333;
  //   n5 = 11.667 + 13 + 44.333 = 69;  n4 = 12.667 + max(27 + 35.667, 23 + 44.333) = 80;
  //   n3 = 14.333 + 23 + 42.667 = 80;  n2 = 16.667 + max(19 + 35.667, 16 + 44.333) = 77;
  //   n1 = 13 + max(18 + 77, 12 + 80, 9 + 80, 11 + 69, 14 + 63.333) = 108.
  const auto p = topcuoglu();
  const auto rank = scheduler::upward_rank(p, scheduler::CommModel(p), p.topo->compute_devices());
  const auto& g = *p.graph;
  const std::vector<std::pair<const char*, double>> expected = {
      {"n1", 108}, {"n2", 77}, {"n3", 80}, {"n4", 80}, {"n5", 69}, {"n6", 63.0 + 1.0 / 3},
      {"n7", 42.0 + 2.0 / 3}, {"n8", 35.0 + 2.0 / 3}, {"n9", 44.0 + 1.0 / 3}, {"n10", 14.0 + 2.0 / 3}};
  for (auto& [name, r] : expected) EXPECT_NEAR(rank[g.find(name)], r, 1e-9) << name;
}

TEST(Heft, ReproducesTheTopcuogluSchedule) {
  // Order by rank: n1 n3 n4 (tie with n3, topological position) n2 n5 n6 n9 n7 n8 n10. EFT per
  // processor (p1, p2, p3), the chosen one starred; "ready" adds the edge time across devices:
  //   n1: 14, 16, 9*                          -> p3 [0, 9]
  //   n3: ready 21 | 21 | 9:   32, 34, 28*    -> p3 [9, 28]
  //   n4: ready 18 | 18 | 9:   31, 26*, 45    -> p2 [18, 26]
  //   n2: ready 27 | 27 | 9:   40*, 46, 46    -> p1 [27, 40]
  //   n5: ready 20:            52, 39, 38*    -> p3 [28, 38]
  //   n6: ready 23 | 23 | 9:   53, 42*, 47    -> p2 [26, 42]  (p1's gap [0, 27] is too short from 23)
  //   n9: preds n2 (p1, 40, +16), n4 (p2, 26, +23), n5 (p3, 38, +13):
  //       p1 ready 51: 69;  p2 ready 56: 68*;  p3 ready 56: 76 -> p2 [56, 68]
  //   n7: pred n3 (p3, 28, +23): p1 51 + 7 = 58;  p2 68 + 15 = 83;  p3 38 + 11 = 49* -> p3 [38, 49]
  //   n8: preds n2 (p1, 40, +19), n4 (p2, 26, +27), n6 (p2, 42, +15):
  //       p1 ready 57: 62*;  p2 ready 59, free at 68: 79;  p3 ready 59: 73 -> p1 [57, 62]
  //   n10: preds n7 (p3, 49, +17), n8 (p1, 62, +11), n9 (p2, 68, +13):
  //       p1 ready 81: 102;  p2 ready 73: 80*;  p3 ready 81: 97 -> p2 [73, 80]
  // Schedule length 80, as in the paper.
  const auto p = topcuoglu();
  const auto s = scheduler::heft_schedule(p, p.topo->compute_devices(), true);
  const auto& g = *p.graph;
  struct Slot {
    const char* op;
    const char* dev;
    double start, finish;
  };
  const std::vector<Slot> expected = {{"n1", "p3", 0, 9},   {"n3", "p3", 9, 28},  {"n4", "p2", 18, 26},
                                      {"n2", "p1", 27, 40}, {"n5", "p3", 28, 38}, {"n6", "p2", 26, 42},
                                      {"n9", "p2", 56, 68}, {"n7", "p3", 38, 49}, {"n8", "p1", 57, 62},
                                      {"n10", "p2", 73, 80}};
  for (const Slot& x : expected) {
    const int v = g.find(x.op);
    EXPECT_EQ(p.topo->devices[s.device_of[v]].id, x.dev) << x.op;
    EXPECT_DOUBLE_EQ(s.start[v], x.start) << x.op;
    EXPECT_DOUBLE_EQ(s.finish[v], x.finish) << x.op;
  }
  EXPECT_DOUBLE_EQ(s.makespan, 80);
  const auto r = run_placer("heft", p);
  ASSERT_TRUE(r.plan);
  EXPECT_DOUBLE_EQ(*r.predicted_s, 80);
}

TEST(Heft, InsertionFillsAnIdleGap) {
  // a (p1: 100, p2: 1) -> b (p1: 1, p2: 100), edge time 3; c (p1: 2, p2: 50) on its own.
  // Ranks: b = 50.5, a = 50.5 + 3 + 50.5 = 104, c = 26: order a, b, c.
  //   a -> p2 [0, 1];  b: p1 ready 4 -> [4, 5] (p2: 101);  c: p1 is idle in [0, 4]:
  //   with insertion c -> p1 [0, 2], length 5; without, c -> p1 [5, 7] (p2: 51), length 7.
  const auto p = problem(models::parse_graph(Json::load_string(
                             R"({"nodes": [{"name": "a", "durations": {"p1": 100, "p2": 1}},
                                           {"name": "b", "durations": {"p1": 1, "p2": 100}},
                                           {"name": "c", "durations": {"p1": 2, "p2": 50}}],
                                 "edges": [{"src": "a", "dst": "b", "time": 3}]})", "g.json")),
                         hw::load_topology_text(kTwoProcessors, "ideal.yaml"));
  const auto& g = *p.graph;
  const std::vector<int> devs = {p.topo->index("p1"), p.topo->index("p2")};
  const auto with = scheduler::heft_schedule(p, devs, true);
  EXPECT_DOUBLE_EQ(with.start[g.find("c")], 0);
  EXPECT_DOUBLE_EQ(with.makespan, 5);
  const auto without = scheduler::heft_schedule(p, devs, false);
  EXPECT_DOUBLE_EQ(without.start[g.find("c")], 5);
  EXPECT_DOUBLE_EQ(without.makespan, 7);
  // The plan runs c before b on p1, so the simulation agrees with the prediction.
  const auto r = run_placer("heft", p);
  EXPECT_DOUBLE_EQ(*r.predicted_s, 5);
  EXPECT_DOUBLE_EQ(simulate(p, *r.plan).makespan, 5);
}

}  // namespace

namespace {

// HEFT with weights in host memory, on two GPUs behind one shared PCIe uplink (host -> bus,
// 10 GB/s; bus -> each GPU 20 GB/s; no latency). w1 (1 GB) feeds a, w2 (1 GB) feeds b, a -> b
// carries 0.1 GB. Durations: a 0.1 s anywhere; b 0.3 s on gpu0, 0.1 s on gpu1.
//   a: its copy takes 1 GB / 10 GB/s = 0.1 s on either GPU (the uplink is the bottleneck):
//      EFT 0.2 on both, the lower index wins -> gpu0 [0.1, 0.2]; w1's copy holds the uplink [0, 0.1].
//   b on gpu0: w2 copies after w1 on the uplink [0.1, 0.2]; a's output is there: EFT 0.2 + 0.3 = 0.5.
//   b on gpu1: w2 [0.1, 0.2]; a's output crosses gpu0 -> bus -> gpu1 at 20 GB/s, 0.1/20 = 0.005 s,
//      arriving 0.205: EFT 0.205 + 0.1 = 0.305 -> gpu1.               HEFT predicts 0.305.
// The plan queues both copies on the uplink's copy queue in that order, so the engine runs them
// one after another as booked and the simulation is 0.305 too. (On two per-GPU queues they would
// share the uplink, both ending at 0.2, and b would end at 0.405; a HEFT blind to the copies
// would predict 0.2.)
TEST(Heft, BooksParameterCopiesOnTheSharedBus) {
  constexpr const char* kTopo =
      "devices:\n  - {id: host, type: host_memory, memory: 64GiB}\n  - {id: bus, type: switch}\n"
      "  - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}\n"
      "  - {id: gpu1, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}\n"
      "links:\n  - {id: uplink, a: host, b: bus, bw: 10GB/s}\n  - {a: bus, b: gpu0, bw: 20GB/s}\n"
      "  - {a: bus, b: gpu1, bw: 20GB/s}\n";
  constexpr const char* kGraph = R"({"nodes": [{"name": "w1", "param_bytes": 1e9}, {"name": "w2", "param_bytes": 1e9},
      {"name": "a", "durations": {"gpu0": 0.1, "gpu1": 0.1}}, {"name": "b", "durations": {"gpu0": 0.3, "gpu1": 0.1}}],
      "edges": [{"src": "w1", "dst": "a"}, {"src": "w2", "dst": "b"}, {"src": "a", "dst": "b", "bytes": 1e8}]})";
  const auto p = problem(models::parse_graph(Json::load_string(kGraph, "g.json")),
                         hw::load_topology_text(kTopo, "t.yaml"), scheduler::WeightsMode::Host);
  const auto r = run_placer("heft", p);
  ASSERT_TRUE(r.plan);
  EXPECT_NEAR(*r.predicted_s, 0.305, 1e-12);
  EXPECT_EQ(p.topo->devices[r.plan->device_of[p.graph->find("a")]].id, "gpu0");
  EXPECT_EQ(p.topo->devices[r.plan->device_of[p.graph->find("b")]].id, "gpu1");
  bool queued = false;
  for (const auto& q : r.plan->queues)
    if (q.name == "uplink.copy") queued = q.items.size() == 2 && q.items[0].node == p.graph->find("w1");
  EXPECT_TRUE(queued) << "both copies on the uplink's queue, w1 first";
  EXPECT_NEAR(simulate(p, *r.plan).makespan, 0.305, 1e-9);
}

}  // namespace
