// GETF (scheduler/placers/getf.cpp): a hand-worked LP, rounding and ETF; the reduction to ETF
// on identical machines; and the approximation bound derived in getf.cpp's header, on seeded
// DAGs over related machines.
#include <gtest/gtest.h>

#include <algorithm>
#include <fmt/format.h>

#include "tests/scheduler/placers/support.hpp"
#include "models/generators/random_dag.hpp"
#include "models/graph_json.hpp"
#include "scheduler/placers/getf.hpp"

namespace {

using namespace placers_test;

// One fast machine f and two slow ones s1, s2 (s twice as slow on a, b, c; e runs 1.5 s on any).
constexpr const char* kFastSlow = R"({"nodes": [
  {"name": "a", "durations": {"f": 1, "s1": 2, "s2": 2}},
  {"name": "b", "durations": {"f": 2, "s1": 4, "s2": 4}},
  {"name": "c", "durations": {"f": 2, "s1": 4, "s2": 4}},
  {"name": "e", "durations": {"f": 1.5, "s1": 1.5, "s2": 1.5}}],
 "edges": [{"src": "a", "dst": "b", "time": 1}, {"src": "a", "dst": "c", "time": 1}, {"src": "a", "dst": "e", "time": 1}]})";

constexpr const char* kThreeCpus =
    "network: ideal\ndevices: [{id: f, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
    " {id: s1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
    " {id: s2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n";

TEST(Getf, HandWorkedExample) {
  // Groups: F = {f} (m = 1), S = {s1, s2} (m = 2). With x_j the LP share of op j on F:
  //   p-bar_a = 2 - x_a, p-bar_b = 4 - 2 x_b, p-bar_c = 4 - 2 x_c, p-bar_e = 1.5
  //   chains:  D >= p-bar_a + p-bar_b = 6 - x_a - 2 x_b,  D >= 6 - x_a - 2 x_c,  D >= 3.5 - x_a
  //   load F:  D >= x_a + 2 x_b + 2 x_c + 1.5 x_e;   load S: 2 D >= 2(1-x_a) + 4(2-x_b-x_c) + 1.5(1-x_e)
  // Adding both a-b, a-c chains and load F: 3 D >= 12 - x_a + 1.5 x_e >= 11, so D* = 11/3, met
  // only with x_a = 1, x_e = 0 and all three tight: x_b = x_c = 2/3 (load S: 25/12 <= D, slack).
  // Rounding (largest share): a, b, c -> F, e -> S.
  // ETF, ranks over {f, s1, s2}: b = c = (2+4+4)/3 = 10/3, e = 1.5, a = 5/3 + 1 + 10/3 = 6.
  //   a: only f            -> f [0, 1]
  //   b, c: EST 1 on f (tie, equal rank, b first); e: EST 1 + 1 = 2 on s1  -> b on f [1, 3]
  //   c: EST 3 on f; e: EST 2 on s1                                      -> e on s1 [2, 3.5]
  //   c                                                                  -> f [3, 5]
  // Makespan 5. m-ETF, free to use any device, puts c on s1 at 2 (its earliest start) and
  // finishes at 2 + 4 = 6 (a f [0,1], b f [1,3], c s1 [2,6], e s2 [2,3.5]).
  const auto p = problem(models::parse_graph(Json::load_string(kFastSlow, "g.json")),
                         hw::load_topology_text(kThreeCpus, "three.yaml"));
  const auto& g = *p.graph;
  const auto& topo = *p.topo;
  const int f = topo.find("f"), s1 = topo.find("s1"), s2 = topo.find("s2");
  const scheduler::Getf s = scheduler::getf_schedule(p);
  ASSERT_EQ(s.error, "");
  ASSERT_EQ(s.groups, (std::vector<std::vector<int>>{{f}, {s1, s2}}));
  EXPECT_NEAR(s.lp_bound, 11.0 / 3, 1e-9);
  EXPECT_EQ(s.group_of[g.find("a")], 0);
  EXPECT_EQ(s.group_of[g.find("b")], 0);
  EXPECT_EQ(s.group_of[g.find("c")], 0);
  EXPECT_EQ(s.group_of[g.find("e")], 1);
  ASSERT_EQ(s.etf.stuck, -1);
  const scheduler::Schedule& sch = s.etf.schedule;
  const std::vector<std::tuple<const char*, int, double, double>> expected = {
      {"a", f, 0, 1}, {"b", f, 1, 3}, {"e", s1, 2, 3.5}, {"c", f, 3, 5}};
  for (auto& [name, dev, start, finish] : expected) {
    const int v = g.find(name);
    EXPECT_EQ(sch.device_of[v], dev) << name;
    EXPECT_NEAR(sch.start[v], start, 1e-12) << name;
    EXPECT_NEAR(sch.finish[v], finish, 1e-12) << name;
  }
  EXPECT_NEAR(sch.makespan, 5, 1e-12);

  const auto r = run_placer("getf", p);
  ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  EXPECT_NEAR(*r.predicted_s, 5, 1e-12);
  EXPECT_NEAR(simulate(p, *r.plan).makespan, 5, 1e-9);
  EXPECT_NEAR(*run_placer("m-etf", p).predicted_s, 6, 1e-12);
}

// Devices of one speed: a single group, so GETF's restriction is void and it is m-ETF (same
// ETF loop, same ranks and tie-breaking). Also, with K = 1 the LP is solved by x = 1, so D* is
// max(longest path of durations, total work / m), computed here independently.
TEST(Getf, IdenticalMachinesReduceToEtf) {
  const char* topo_yaml =
      "network: ideal\ndevices: [{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
      " {id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
      " {id: g2, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18}]\n";
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    models::RandomDagSpec spec;
    spec.seed = seed;
    spec.depth = 3 + static_cast<int>(seed % 5);
    spec.width = 2 + static_cast<int>(seed % 3);
    spec.ccr = seed % 2 ? 0.5 : 3.0;
    if (seed % 2) spec.devices = {"g0", "g1", "g2"}, spec.beta = 0, spec.mean = 1;  // durations mode, equal
    const auto p = problem(models::generate_random_dag(spec), hw::load_topology_text(topo_yaml, "ideal.yaml"));
    const auto& g = *p.graph;
    const int g0 = p.topo->find("g0");
    const scheduler::Getf s = scheduler::getf_schedule(p);
    ASSERT_EQ(s.error, "");
    ASSERT_EQ(s.groups.size(), 1u) << seed;
    double work = 0;
    std::vector<double> path(g.nodes.size(), 0.0);
    double longest = 0;
    for (int v : g.topo_order()) {
      if (g.nodes[v].kind != models::NodeKind::Op) continue;
      const double w = p.duration(v, g0);
      for (int e : g.in_edges(v))
        if (g.nodes[g.edges[e].src].kind == models::NodeKind::Op) path[v] = std::max(path[v], path[g.edges[e].src]);
      path[v] += w;
      longest = std::max(longest, path[v]);
      work += w;
    }
    EXPECT_NEAR(s.lp_bound, std::max(longest, work / 3), 1e-9 * longest) << seed;
    const auto getf = run_placer("getf", p);
    const auto etf = run_placer("m-etf", p);
    ASSERT_EQ(getf.status, scheduler::RunStatus::Ok);
    EXPECT_EQ(*getf.predicted_s, *etf.predicted_s) << seed;
    EXPECT_EQ(getf.plan->device_of, etf.plan->device_of) << seed;
    ++checked;
  }
  EXPECT_EQ(checked, 10);
}

// Largest communication time of edge e over ordered pairs of distinct devices.
double worst_edge_time(const scheduler::CommModel& comm, int e, const std::vector<int>& devices) {
  double c = 0;
  for (int a : devices)
    for (int b : devices)
      if (a != b) c = std::max(c, comm.edge_time(e, a, b));
  return c;
}

// Longest path, op weights node_w, op-to-op edge weights edge_w.
template <class NodeW, class EdgeW>
double longest_path(const models::Graph& g, NodeW node_w, EdgeW edge_w) {
  std::vector<double> to(g.nodes.size(), 0.0);
  double best = 0;
  for (int v : g.topo_order()) {
    if (g.nodes[v].kind != models::NodeKind::Op) continue;
    for (int e : g.in_edges(v)) {
      const int u = g.edges[e].src;
      if (g.nodes[u].kind == models::NodeKind::Op) to[v] = std::max(to[v], to[u] + edge_w(e));
    }
    to[v] += node_w(v);
    best = std::max(best, to[v]);
  }
  return best;
}

TEST(Getf, MeetsTheApproximationBoundOnRelatedMachines) {
  // getf.cpp's header: with K groups, loads L_k, c-bar the worst edge time,
  //   makespan <= sum_k L_k / m_k + longest path of (p_{j,k(j)}, c-bar)      (Hwang et al.'s chain)
  //            <= K (K + 1) D* + longest path of c-bar alone                  (rounding: x >= 1/K)
  // and D* is a lower bound: D* >= max(longest path of min_k p_jk, sum_j min_k p_jk / m), D* <= makespan.
  const char* ideal_mixed =
      "network: ideal\ndevices: [{id: g0, type: gpu, fp32: 20TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
      " {id: g1, type: gpu, fp32: 5TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
      " {id: g2, type: gpu, fp32: 5TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
      " {id: g3, type: gpu, fp32: 1TFLOPS, memory_bw: 900GB/s, memory: 1e18}]\n";
  int checked = 0;
  for (const char* where : {"sortinghat-v100-hetero", "moirai-intraserver", "ideal"}) {
    const hw::Topology topo = std::string(where) == "ideal" ? hw::load_topology_text(ideal_mixed, "mixed.yaml")
                                                            : hw::load_topology(Yaml(YAML::Node(where), "test"));
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      models::RandomDagSpec spec;
      spec.seed = seed;
      spec.depth = 4 + static_cast<int>(seed % 4);
      spec.width = 3 + static_cast<int>(seed % 3);
      spec.ccr = 0.5 * static_cast<double>(seed);
      const auto p = problem(models::generate_random_dag(spec), topo);
      const auto& g = *p.graph;
      const std::string what = fmt::format("{} seed {}", where, seed);
      const scheduler::Getf s = scheduler::getf_schedule(p);
      ASSERT_EQ(s.error, "") << what;
      ASSERT_EQ(s.etf.stuck, -1) << what;
      const std::vector<int> devices = scheduler::default_devices(*p.topo);
      const size_t K = s.groups.size();
      EXPECT_EQ(K, std::string(where) == "ideal" ? 3u : 2u) << what;
      const scheduler::CommModel comm(p);
      const auto dur = [&](int v) { return p.duration(v, s.groups[s.group_of[v]].front()); };
      const auto cbar = [&](int e) { return worst_edge_time(comm, e, devices); };
      const auto fastest = [&](int v) {
        double m = models::kCannotRun;
        for (int d : devices) m = std::min(m, p.duration(v, d));
        return m;
      };
      std::vector<double> load(K, 0.0);
      double min_work = 0;
      for (int v : g.ops()) {
        load[s.group_of[v]] += dur(v);
        min_work += fastest(v);
      }
      double busy = 0;
      for (size_t k = 0; k < K; ++k) busy += load[k] / static_cast<double>(s.groups[k].size());
      const double makespan = s.etf.schedule.makespan;
      const double chain = longest_path(g, dur, cbar);
      const double comm_only = longest_path(g, [](int) { return 0.0; }, cbar);
      const double kk = static_cast<double>(K);
      EXPECT_LE(makespan, (busy + chain) * (1 + 1e-9)) << what;
      EXPECT_LE(makespan, (kk * (kk + 1) * s.lp_bound + comm_only) * (1 + 1e-9)) << what;
      const double min_path = longest_path(g, fastest, [](int) { return 0.0; });
      EXPECT_GE(s.lp_bound, std::max(min_path, min_work / static_cast<double>(devices.size())) * (1 - 1e-6)) << what;
      EXPECT_LE(s.lp_bound, makespan * (1 + 1e-9)) << what;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 18);
}

TEST(Getf, SameInputsGiveTheSameSchedule) {
  const auto p = random_dag_on("moirai-intraserver", 3, 6, 4);
  const scheduler::Getf a = scheduler::getf_schedule(p), b = scheduler::getf_schedule(p);
  EXPECT_EQ(a.lp_bound, b.lp_bound);
  EXPECT_EQ(a.group_of, b.group_of);
  EXPECT_EQ(a.etf.schedule.device_of, b.etf.schedule.device_of);
  EXPECT_EQ(a.etf.schedule.start, b.etf.schedule.start);
}

TEST(Getf, TooLittleMemoryIsInfeasibleNotAnError) {
  models::RandomDagSpec spec;
  spec.seed = 7;
  spec.depth = 10;
  spec.width = 4;
  const char* tiny = "network: ideal\ndevices: [{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1000}]\n";
  const auto p = problem(models::generate_random_dag(spec), hw::load_topology_text(tiny, "tiny.yaml"));
  const auto r = run_placer("getf", p);
  EXPECT_EQ(r.status, scheduler::RunStatus::Infeasible);
  EXPECT_NE(r.message.find("fits in the memory left on no device"), std::string::npos) << r.message;
}

}  // namespace
