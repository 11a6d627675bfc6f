// What each rank of a collective sends (TaskGraph::traffic), for the communication metric: the
// bytes per rank derived here from each algorithm's steps, at flow fidelity with and without
// chunks and at analytic fidelity, whose tasks record exactly what the flow lowering sends, peer
// by peer, without using any resource.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/collectives/tree.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::kGBps;
using test::kUs;
using test::spec_of;

constexpr double kS = 1.2e9;
constexpr int kN = 4;

TaskGraph lowered(CollectiveSpec s, Fidelity f, int chunks) {
  TaskGraph g;
  const LinkNetwork net = switch_network(g, kN, 10 * kGBps, kUs);
  s.fidelity = f;
  s.chunks = chunks;
  lower_collective(g, s, net);
  g.validate();
  return g;
}

std::map<std::pair<int, int>, double> per_pair(const TaskGraph& g) {
  std::map<std::pair<int, int>, double> sent;
  for (const Traffic& t : g.traffic) sent[{t.src, t.dst}] += t.bytes;
  return sent;
}

std::vector<double> per_rank(const TaskGraph& g) {
  std::vector<double> sent(kN, 0.0);
  for (const Traffic& t : g.traffic) sent[t.src] += t.bytes;
  return sent;
}

// Tree all-reduce: in each of the two trees a rank sends its half (S/2) up to its parent, unless
// it is the root, and down to each of its children.
std::vector<double> tree_sends() {
  std::vector<double> sent(kN, 0.0);
  for (const BinaryTree& t : double_binary_tree(kN))
    for (int r = 0; r < kN; ++r) sent[r] += kS / 2 * ((t.parent[r] >= 0 ? 1 : 0) + static_cast<double>(t.children[r].size()));
  return sent;
}

struct Case {
  const char* what;
  CollectiveSpec spec;
  std::vector<double> sent;  // per rank
};

std::vector<Case> cases() {
  const double S = kS, n = kN;
  const std::vector<double> ring_ar(kN, 2 * (n - 1) / n * S), share(kN, (n - 1) / n * S);
  CollectiveSpec ag = spec_of(CollectiveOp::AllGather, "ring", kN, S);
  CollectiveSpec rs = spec_of(CollectiveOp::ReduceScatter, "ring", kN, S);
  CollectiveSpec p2p = spec_of(CollectiveOp::PointToPoint, "direct", kN, S);
  p2p.senders = 2;
  CollectiveSpec prop = spec_of(CollectiveOp::PointToPoint, "proportional", kN, S);
  prop.senders = 2;
  prop.weights = {1, 3, 1, 1};
  CollectiveSpec hier = spec_of(CollectiveOp::AllReduce, "hierarchical", kN, S);
  hier.nodes = {0, 0, 1, 1};  // N = 2 nodes of m = 2
  std::vector<Case> c = {
      {"ring all-reduce: 2(n-1) steps of S/n", spec_of(CollectiveOp::AllReduce, "ring", kN, S), ring_ar},
      {"ring all-gather: n-1 steps of S/n", ag, share},
      {"ring reduce-scatter: n-1 steps of S/n", rs, share},
      {"ring broadcast: S down the chain", spec_of(CollectiveOp::Broadcast, "ring", kN, S), {S, S, S, 0}},
      {"tree all-reduce", spec_of(CollectiveOp::AllReduce, "tree", kN, S), tree_sends()},
      {"direct all-to-all: S/n to each peer", spec_of(CollectiveOp::AllToAll, "direct", kN, S), share},
      {"direct all-gather", spec_of(CollectiveOp::AllGather, "direct", kN, S), share},
      {"direct reduce-scatter", spec_of(CollectiveOp::ReduceScatter, "direct", kN, S), share},
      {"direct all-reduce: two exchanges", spec_of(CollectiveOp::AllReduce, "direct", kN, S), ring_ar},
      {"direct broadcast: S from the root to each", spec_of(CollectiveOp::Broadcast, "direct", kN, S), {3 * S, 0, 0, 0}},
      {"direct point-to-point: S/2 from each sender", p2p, {S / 2, S / 2, 0, 0}},
      {"proportional point-to-point: S w_i / W_P", prop, {S / 4, 3 * S / 4, 0, 0}},
      // (m-1) S/m reduce-scattered, 2(N-1) S/(mN) across nodes, (m-1) S/m gathered: S/2 each.
      {"hierarchical all-reduce", hier, {1.5 * S, 1.5 * S, 1.5 * S, 1.5 * S}},
  };
  return c;
}

TEST(CollectivesTraffic, EachRankSendsWhatItsAlgorithmSendsAtBothFidelities) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    const TaskGraph flow = lowered(c.spec, Fidelity::Flow, 1);
    const TaskGraph chunked = lowered(c.spec, Fidelity::Flow, 3);
    const TaskGraph analytic = lowered(c.spec, Fidelity::Analytic, 3);
    for (const TaskGraph* g : {&flow, &chunked, &analytic}) {
      const std::vector<double> sent = per_rank(*g);
      for (int r = 0; r < kN; ++r) EXPECT_NEAR(sent[r], c.sent[r], 1e-12 * kS) << "rank " << r;
      for (const Traffic& t : g->traffic) EXPECT_STREQ(t.kind, to_string(c.spec.op));
    }
    const auto flow_pairs = per_pair(flow), analytic_pairs = per_pair(analytic);
    ASSERT_EQ(analytic_pairs.size(), flow_pairs.size());
    for (auto& [pair, bytes] : flow_pairs) EXPECT_NEAR(analytic_pairs.at(pair), bytes, 1e-12 * kS);
    // Analytic: one record per peer, on the sending rank's task, whose bytes are its sends and
    // which still uses nothing (its time is the closed form's latency alone).
    EXPECT_EQ(analytic.traffic.size(), flow_pairs.size());
    for (const Traffic& t : analytic.traffic) {
      const Task& task = analytic.tasks[t.task];
      EXPECT_EQ(analytic.name(t.task), "coll.analytic." + std::to_string(t.src));
      EXPECT_NEAR(task.bytes, c.sent[t.src], 1e-12 * kS);
      EXPECT_TRUE(task.uses.empty());
    }
  }
}

}  // namespace
}  // namespace placesim::engine
