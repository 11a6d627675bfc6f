// The communication volume of a run (scheduler/comm_bytes.hpp), every figure derived here by hand:
// a ring all-reduce's 2(n-1)/n S per GPU at both fidelities, what crosses nodes on a two-node
// cluster (ring against hierarchical), parameter copies (parallel transmission's legs included)
// and activation deliveries per kind and per sending device, and what is not counted.
#include <fmt/format.h>

#include "scheduler/comm_bytes.hpp"
#include "scheduler/plan/json.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using scheduler::CommBytes;
using Via = scheduler::ParamDelivery::Via;

constexpr double S = 1.2e9;  // bytes all-reduced

CommBytes comm_of(const Problem& p, const Outcome& o) { return scheduler::comm_bytes(*p.topo, o.low.graph, o.trace); }

// One op a_i before and one b_i after a collective on each of `gpus`, 1 ms each.
std::string around_graph(const std::vector<std::string>& gpus) {
  std::string nodes;
  for (size_t i = 0; i < gpus.size(); ++i)
    for (const char* op : {"a", "b"})
      nodes += fmt::format(R"({}{{"name": "{}{}", "durations": {{"{}": 1e-3}}}})", nodes.empty() ? "" : ", ", op, i, gpus[i]);
  return R"({"nodes": [)" + nodes + R"(], "edges": []})";
}

// The plan: a_i then b_i on gpu i's stream, and an all-reduce of S bytes over `gpus` between them.
std::string around_plan(const std::vector<std::string>& gpus, const std::string& algorithm, int chunks = 1) {
  std::string devices, group, after, before, queues;
  for (size_t i = 0; i < gpus.size(); ++i) {
    const char* sep = i == 0 ? "" : ", ";
    devices += fmt::format(R"({}"a{}": "{}", "b{}": "{}")", sep, i, gpus[i], i, gpus[i]);
    group += fmt::format(R"({}"{}")", sep, gpus[i]);
    after += fmt::format(R"({}"a{}")", sep, i);
    before += fmt::format(R"({}"b{}")", sep, i);
    queues += fmt::format(R"({}{{"name": "{}.compute", "tasks": ["a{}", "b{}"]}})", sep, gpus[i], i, i);
  }
  return fmt::format(R"({{"devices": {{{}}},
    "collectives": [{{"name": "ar", "op": "all-reduce", "algorithm": "{}", "group": [{}], "bytes": {},
                      "chunks": {}, "after": [{}], "before": [{}]}}],
    "queues": [{}]}})",
                     devices, algorithm, group, S, chunks, after, before, queues);
}

Outcome run_at(Problem p, const std::string& plan, engine::Fidelity f) {
  p.collectives = f;
  return run(p, scheduler::parse_plan(Json::load_string(plan, "plan.json"), *p.graph, *p.topo));
}

// (a) Ring all-reduce of S over n = 4 GPUs: 2(n-1) steps of S/n from each GPU, 2(n-1)/n S =
// 1.8 GB each, 7.2 GB in all, every byte of kind all-reduce; the same at analytic fidelity (one
// task per rank) and with the data cut into chunks; the station is one node.
TEST(CommBytes, RingAllReduceSendsTwoNMinusOneOverNPerGpuAtBothFidelities) {
  const std::vector<std::string> gpus = {"gpu0", "gpu1", "gpu3", "gpu2"};
  const Problem p = problem(around_graph(gpus), preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  const double n = 4, each = 2 * (n - 1) / n * S;
  for (engine::Fidelity f : {engine::Fidelity::Flow, engine::Fidelity::Analytic})
    for (int chunks : {1, 4}) {
      SCOPED_TRACE(fmt::format("{} fidelity, {} chunks", f == engine::Fidelity::Flow ? "flow" : "analytic", chunks));
      const CommBytes c = comm_of(p, run_at(p, around_plan(gpus, "ring", chunks), f));
      ASSERT_EQ(c.per_gpu.size(), 4u);  // the station's four GPUs; its CPU sends nothing
      for (const std::string& g : gpus) EXPECT_NEAR(c.per_gpu.at(g), each, 1e-12 * S) << g;
      EXPECT_NEAR(c.total, n * each, 1e-12 * S);
      EXPECT_EQ(c.by_kind.size(), 1u);
      EXPECT_NEAR(c.by_kind.at("all-reduce"), n * each, 1e-12 * S);
      EXPECT_EQ(c.inter_node, 0);
    }
}

// (b) asymgroup-s2's first two nodes hold two GPUs each. An all-reduce of S:
//   inside n0 (2 GPUs, ring):     2 (n-1)/n S = S each, 2S in all, none across nodes;
//   n0.gpu0 with n1.gpu0 (ring):  the same 2S, all of it across;
//   ring over the 4 GPUs n0.gpu0 -> n0.gpu1 -> n1.gpu0 -> n1.gpu1: 1.5 S each, 6S in all; two of
//     the four hops cross nodes: 3S;
//   hierarchical over the same 4 (N = 2 nodes of m = 2): inside each node a reduce-scatter and an
//     all-gather of (m-1) S/m = S/2 each, across nodes 2(N-1) S/(mN) = S/2 per GPU: the same 1.5 S
//     each and 6S in all, but only 4 x S/2 = 2S across nodes.
TEST(CommBytes, InterNodeCountsWhatCrossesNodesOnATwoNodeCluster) {
  struct Case {
    std::vector<std::string> gpus;
    const char* algorithm;
    double total, inter;
  } cases[] = {
      {{"n0.gpu0", "n0.gpu1"}, "ring", 2 * S, 0},
      {{"n0.gpu0", "n1.gpu0"}, "ring", 2 * S, 2 * S},
      {{"n0.gpu0", "n0.gpu1", "n1.gpu0", "n1.gpu1"}, "ring", 6 * S, 3 * S},
      {{"n0.gpu0", "n0.gpu1", "n1.gpu0", "n1.gpu1"}, "hierarchical", 6 * S, 2 * S},
  };
  const hw::Topology topo = preset("asymgroup-s2");
  ASSERT_EQ(topo.devices[topo.index("n0.gpu1")].node, "n0");
  ASSERT_EQ(topo.devices[topo.index("n1.gpu0")].node, "n1");
  for (const Case& c : cases) {
    const Problem p = problem(around_graph(c.gpus), topo, scheduler::WeightsMode::Resident);
    for (engine::Fidelity f : {engine::Fidelity::Flow, engine::Fidelity::Analytic}) {
      SCOPED_TRACE(fmt::format("{} over {} GPUs from {}, {}", c.algorithm, c.gpus.size(), c.gpus[1],
                               f == engine::Fidelity::Flow ? "flow" : "analytic"));
      const CommBytes comm = comm_of(p, run_at(p, around_plan(c.gpus, c.algorithm), f));
      EXPECT_NEAR(comm.total, c.total, 1e-12 * S);
      EXPECT_NEAR(comm.inter_node, c.inter, 1e-12 * S);
      EXPECT_EQ(comm.per_gpu.size(), 18u);  // every GPU of the cluster
      for (const std::string& g : c.gpus) EXPECT_NEAR(comm.per_gpu.at(g), c.total / c.gpus.size(), 1e-12 * S) << g;
    }
  }
}

// (c) On the V100 station, weights in host memory:
//   w (P) copied to gpu0 for a;                            parameter P from host
//   v (Q) to gpu1 for b by parallel transmission through gpu3, f = 1/4:
//     (1-f) Q host -> gpu1, f Q host -> gpu3, f Q gpu3 -> gpu1: parameter (1+f) Q, gpu3 sends f Q
//   u read by a through direct host access:                not counted
//   a's output (A) delivered to b on gpu1:                 activation A from gpu0
//   c on the CPU, its output (C) delivered to b:           activation C from cpu0
//   a -> d on gpu2 with a fixed time:                      not counted (a time, no bytes)
TEST(CommBytes, ParameterCopiesAndActivationDeliveriesCountPerKindForTheirSender) {
  const double P = 1.2e9, Q = 0.8e9, A = 0.6e9, C = 0.1e9, f = 0.25;
  const char* g = R"({"nodes": [
      {"name": "w", "param_bytes": 1.2e9}, {"name": "v", "param_bytes": 0.8e9}, {"name": "u", "param_bytes": 0.4e9},
      {"name": "a", "durations": {"gpu0": 1e-3}}, {"name": "c", "durations": {"cpu0": 1e-3}},
      {"name": "b", "durations": {"gpu1": 1e-3}}, {"name": "d", "durations": {"gpu2": 1e-3}}],
    "edges": [{"src": "w", "dst": "a"}, {"src": "u", "dst": "a"}, {"src": "v", "dst": "b"},
              {"src": "a", "dst": "b", "bytes": 0.6e9}, {"src": "c", "dst": "b", "bytes": 0.1e9},
              {"src": "a", "dst": "d", "bytes": 0.3e9, "time": 1e-3}]})";
  const Problem p = problem(g, preset("sortinghat-v100"));
  scheduler::BuildOptions opts;
  opts.params[{p.graph->find("v"), p.topo->index("gpu1")}] = {Via::Parallel, p.topo->index("gpu3"), f, -1, {}};
  opts.params[{p.graph->find("u"), p.topo->index("gpu0")}] = {Via::Dha, -1, 0, -1, {}};
  const Outcome o = run(p, plan_for(p, {{"a", "gpu0"}, {"c", "cpu0"}, {"b", "gpu1"}, {"d", "gpu2"}}, opts));
  const CommBytes c = comm_of(p, o);
  EXPECT_NEAR(c.by_kind.at("parameter"), P + (1 + f) * Q, 1e-12 * P);
  EXPECT_NEAR(c.by_kind.at("activation"), A + C, 1e-12 * P);
  EXPECT_EQ(c.by_kind.size(), 2u);
  EXPECT_NEAR(c.total, P + (1 + f) * Q + A + C, 1e-12 * P);
  EXPECT_EQ(c.inter_node, 0);
  const std::map<std::string, double> per_gpu = {{"gpu0", A}, {"gpu1", 0}, {"gpu2", 0}, {"gpu3", f * Q}, {"cpu0", C}};
  ASSERT_EQ(c.per_gpu.size(), per_gpu.size());
  for (auto& [dev, bytes] : per_gpu) EXPECT_NEAR(c.per_gpu.at(dev), bytes, 1e-12 * P) << dev;
}

// Recording traffic changes no time: the same plan without its traffic, and without the bytes an
// analytic collective's tasks carry (they use no resource), simulates to the same picosecond.
TEST(CommBytes, TrafficChangesNoTime) {
  const std::vector<std::string> gpus = {"gpu0", "gpu1", "gpu3", "gpu2"};
  const Problem p = problem(around_graph(gpus), preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  for (engine::Fidelity f : {engine::Fidelity::Flow, engine::Fidelity::Analytic}) {
    const Outcome o = run_at(p, around_plan(gpus, "tree", 2), f);
    ASSERT_FALSE(o.low.graph.traffic.empty());
    engine::TaskGraph bare = o.low.graph;
    bare.traffic.clear();
    for (engine::Task& task : bare.tasks)
      if (task.uses.empty()) task.bytes = 0;
    const engine::Trace t = engine::simulate(bare);
    ASSERT_EQ(t.tasks.size(), o.trace.tasks.size());
    for (size_t i = 0; i < t.tasks.size(); ++i) EXPECT_EQ(t.tasks[i].end, o.trace.tasks[i].end) << i;
  }
}

}  // namespace
