// Done-when 1: on 200 seeded tiny instances the MILP's optimum equals a brute-force
// enumeration of the same model, computed here without the MILP or the placer's evaluator:
// every assignment of ops to GPUs, and every orientation of the pairs the model sequences
// (two ops on one GPU that no path orders; two transfers of different producers on one channel
// a -> b that no path orders); each acyclic orientation is timed as the longest path of the
// augmented DAG (ops weigh their duration, transfers latency + bytes / bandwidth of their
// direction, 0 within a GPU), and the least makespan over all of them is the optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <tuple>

#include "scheduler/placers/moirai/moirai_model.hpp"
#include "tests/scheduler/milp/model_text.hpp"
#include "tiny.hpp"

namespace {

using namespace moirai_test;
namespace sm = placesim::scheduler::moirai;

// Longest path (the makespan: latest op end) of the arcs over nodes of weight w; +inf on a cycle.
double longest_path(int ops, const std::vector<double>& w, const std::vector<std::pair<int, int>>& arcs) {
  const int V = static_cast<int>(w.size());
  std::vector<std::vector<int>> succ(V);
  std::vector<int> indeg(V, 0);
  for (auto [u, v] : arcs) succ[u].push_back(v), ++indeg[v];
  std::vector<double> start(V, 0.0);
  std::vector<int> todo;
  for (int v = 0; v < V; ++v)
    if (indeg[v] == 0) todo.push_back(v);
  int seen = 0;
  double makespan = 0;
  while (!todo.empty()) {
    const int u = todo.back();
    todo.pop_back();
    ++seen;
    const double finish = start[u] + w[u];
    if (u < ops) makespan = std::max(makespan, finish);
    for (int v : succ[u]) {
      start[v] = std::max(start[v], finish);
      if (--indeg[v] == 0) todo.push_back(v);
    }
  }
  return seen == V ? makespan : std::numeric_limits<double>::infinity();
}

// Every orientation of pairs[k..]: depth first, skipping the pairs a path already orders (the
// other way would close a cycle) and cutting a branch once its longest path (which more arcs
// only lengthen) reaches the best found.
void orient(int ops, const std::vector<double>& w, std::vector<std::pair<int, int>>& arcs,
            const std::vector<std::pair<int, int>>& pairs, size_t k, double& best) {
  const double now = longest_path(ops, w, arcs);
  if (now >= best) return;
  if (k == pairs.size()) {
    best = now;
    return;
  }
  for (int side = 0; side < 2; ++side) {
    arcs.push_back(side == 0 ? pairs[k] : std::make_pair(pairs[k].second, pairs[k].first));
    orient(ops, w, arcs, pairs, k + 1, best);
    arcs.pop_back();
  }
}

double brute_force(const Tiny& t) {
  const int n = t.ops, E = static_cast<int>(t.edges.size()), V = n + E;
  // reach[i][j]: a path of edges from op i to op j.
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (auto [i, j] : t.edges) reach[i][j] = true;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (reach[i][k] && reach[k][j]) reach[i][j] = true;
  auto ordered = [&](int a, int b) { return a == b || reach[a][b]; };  // b cannot start before a ends
  double best = std::numeric_limits<double>::infinity();
  std::vector<int> dev(n, 0);
  while (true) {
    std::vector<double> w(V);
    for (int i = 0; i < n; ++i) w[i] = t.dur[i][dev[i]];
    for (int e = 0; e < E; ++e) w[n + e] = t.comm(t.edges[e].first, dev[t.edges[e].first], dev[t.edges[e].second]);
    std::vector<std::pair<int, int>> arcs, pairs;
    for (int e = 0; e < E; ++e) arcs.push_back({t.edges[e].first, n + e}), arcs.push_back({n + e, t.edges[e].second});
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (dev[i] == dev[j] && !reach[i][j] && !reach[j][i]) pairs.push_back({i, j});
    for (int e = 0; e < E; ++e)
      for (int f = e + 1; f < E; ++f) {
        const auto [a, b] = t.edges[e];
        const auto [c, d] = t.edges[f];
        const bool cross = dev[a] != dev[b] && dev[c] != dev[d];
        if (cross && dev[a] == dev[c] && dev[b] == dev[d] && a != c && !ordered(b, c) && !ordered(d, a))
          pairs.push_back({n + e, n + f});
      }
    orient(n, w, arcs, pairs, 0, best);
    int k = 0;
    while (k < n && ++dev[k] == t.gpus) dev[k++] = 0;
    if (k == n) break;
  }
  return best;
}

// Seeds 1-185: random GPUs; 186-200: identical GPUs, so the symmetry rows are in the model and
// must keep the optimum.
TEST(MoiraiBruteForce, MilpOptimumEqualsEnumerationOfTheModel) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const bool identical = seed > 185;
    const int gpus = identical ? 3 : 2 + static_cast<int>(seed % 2);
    const int ops = gpus == 2 ? 3 + static_cast<int>(seed % 5) : 3 + static_cast<int>(seed % 4);  // <= 7, <= 6
    const Tiny t = tiny(seed, ops, gpus, 0.45, false, identical);
    const auto& p = t.problem;
    const sm::Coarse c = sm::coarse_tasks(p, {});
    const std::vector<int> devices = p.topo->compute_devices();
    const sm::Instance in = sm::make_instance(p, c, devices, c.order, sm::Placed(p, c, gpus));
    ASSERT_EQ(in.tasks(), ops);
    ASSERT_EQ(in.flows.size(), t.edges.size());
    // The instance's transfer times are latency + bytes / bandwidth of the direction.
    for (const sm::Flow& f : in.flows)
      for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b) ASSERT_NEAR(f.time[a][b], t.comm(in.task[f.src], a, b), 1e-12) << "seed " << seed;
    // Big-M: every op on one GPU, one after another, is a schedule of the model.
    double one_gpu = std::numeric_limits<double>::infinity();
    for (int k = 0; k < gpus; ++k) {
      double sum = 0;
      for (int i = 0; i < ops; ++i) sum += t.dur[i][k];
      one_gpu = std::min(one_gpu, sum);
    }
    const sm::Built b = sm::build_model(in, one_gpu);
    EXPECT_EQ(b.classes.size(), identical ? 1u : 0u) << "seed " << seed;
    placesim::scheduler::milp::SolveOptions opts;
    opts.relative_gap = 0;
    const auto r = placesim::scheduler::milp::solve(b.model, opts);
    ASSERT_EQ(r.status, placesim::scheduler::milp::Status::Optimal) << "seed " << seed;
    const double expected = brute_force(t);
    const double objective = r.objective * b.unit;
    EXPECT_NEAR(objective, expected, 1e-6 * expected) << "seed " << seed << ", " << ops << " ops on " << gpus;
    // The schedule read back, timed by the model's evaluator, is that optimum too.
    const sm::Solution s = sm::read_solution(b, in, r);
    EXPECT_NEAR(sm::evaluate(in, s.slot_of, s.task_key, s.flow_key).makespan, expected, 1e-6 * expected)
        << "seed " << seed;
    ++checked;
  }
  EXPECT_EQ(checked, 200);
}

// The model, row by row, as tests/scheduler/placers/moirai/models/ keeps it (tests/scheduler/milp/model_text.hpp): two and
// three GPUs, identical GPUs (the symmetry rows), the memory-only form, and a window after
// earlier ones (devices and a channel busy at first, a pair of slots with no route).
TEST(MoiraiModelText, IsTheModelKept) {
  const std::string dir = std::string(PLACESIM_SOURCE_DIR) + "/tests/scheduler/placers/moirai/models/";
  for (const auto& [seed, gpus, identical, memory_only] :
       {std::tuple{1, 2, false, false}, std::tuple{2, 3, false, false}, std::tuple{190, 3, true, false},
        std::tuple{3, 2, false, true}}) {
    const Tiny t = tiny(static_cast<std::uint64_t>(seed), 5, gpus, 0.45, false, identical);
    const sm::Coarse c = sm::coarse_tasks(t.problem, {});
    const sm::Instance in = sm::make_instance(t.problem, c, t.problem.topo->compute_devices(), c.order,
                                              sm::Placed(t.problem, c, gpus));
    placesim::testing::expect_model_file(sm::build_model(in, 20.0, memory_only).model,
                                         dir + fmt::format("moirai-{}{}.txt", seed, memory_only ? "-memory" : ""));
    if (seed != 2) continue;
    sm::Instance later = in;
    later.device_avail[1] = 0.5;
    later.channel_avail[0][1] = 0.2;
    later.flows.front().time[1][0] = std::numeric_limits<double>::infinity();
    placesim::testing::expect_model_file(sm::build_model(later, 20.0).model, dir + "moirai-2-later.txt");
  }
}

}  // namespace
