// Collectives in flow fidelity against their closed forms, each derived here on a network
// where the algorithm's own flows never share a link, and the analytic fidelity against the
// flow one (within 1e-6 relative) on the same networks. Links: B = 10 GB/s, L = 1 us.
// Flow times round each step's end up to the next picosecond, hence tolerances of a few ps
// per step.
#include <gtest/gtest.h>

#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/collectives/tree.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::kB;
using test::kGBps;
using test::kL;
using test::kUs;
using test::makespan_s;
using test::spec_of;

constexpr double kS = 1e9;
constexpr double kPs = 1e-12;

// Ring all-reduce on n ranks over a ring of links: 2(n-1) steps; at each step every rank
// sends S/n to its clockwise neighbour over its own link, so each step takes L + S/(nB) and
// every rank starts the next step together: T = 2(n-1)(L + S/(nB)).
// (n = 8: 14 (1 us + 12.5 ms) = 175.014 ms.)
TEST(CollectivesClosedForm, RingAllReduce) {
  for (int n : {2, 3, 8}) {
    TaskGraph g;
    const LinkNetwork net = ring_network(g, n, kB, kUs);
    const double expect = 2 * (n - 1) * (kL + kS / (n * kB));
    EXPECT_NEAR(makespan_s(g, net, spec_of(CollectiveOp::AllReduce, "ring", n, kS)), expect, 2 * n * kPs) << n;
  }
}

// Ring all-gather of S in all (S/n per rank) and reduce-scatter of S per rank: n-1 steps of
// S/n each: T = (n-1)(L + S/(nB)).
TEST(CollectivesClosedForm, RingAllGatherAndReduceScatter) {
  const int n = 8;
  for (CollectiveOp op : {CollectiveOp::AllGather, CollectiveOp::ReduceScatter}) {
    TaskGraph g;
    const LinkNetwork net = ring_network(g, n, kB, kUs);
    EXPECT_NEAR(makespan_s(g, net, spec_of(op, "ring", n, kS)), (n - 1) * (kL + kS / (n * kB)), n * kPs) << to_string(op);
  }
}

// Ring all-reduce with k chunks: each connection carries the k chunks of a step one after the
// other and every link is busy at every step, so chunks only add latency:
// T = 2(n-1)(kL + S/(nB)).
TEST(CollectivesClosedForm, RingAllReduceChunked) {
  const int n = 4, k = 5;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  EXPECT_NEAR(makespan_s(g, net, spec_of(CollectiveOp::AllReduce, "ring", n, kS, k)), 2 * (n - 1) * (k * kL + kS / (n * kB)),
              2 * n * k * kPs);
}

// Broadcast down the chain 0 -> 1 -> ... -> n-1 in k chunks: chunk c crosses hop h in slot
// h + c of length L + S/(kB) (it needs hop h-1 of chunk c and hop h of chunk c-1, both done at
// the end of slot h + c - 1), so T = (n-2+k)(L + S/(kB)). Unchunked: (n-1)(L + S/B) = 7 x
// 0.1 s; as k grows T falls towards S/B = 0.1 s plus (n-2+k) L.
TEST(CollectivesClosedForm, BroadcastChainPipelines) {
  const int n = 8;
  double previous = 1e9;
  for (int k : {1, 4, 32, 256}) {
    TaskGraph g;
    const LinkNetwork net = ring_network(g, n, kB, kUs);
    const double t = makespan_s(g, net, spec_of(CollectiveOp::Broadcast, "ring", n, kS, k));
    EXPECT_NEAR(t, (n - 2 + k) * (kL + kS / (k * kB)), (n + k) * kPs) << k;
    EXPECT_LT(t, previous);
    previous = t;
  }
  EXPECT_LT(previous, 1.05 * (kS / kB + (n - 2 + 256) * kL));  // within 5% of the pipelined limit
}

// Double binary tree all-reduce on n = 4 over a full mesh (a link per ordered pair). Tree 0:
// 0 <- 2 <- {1, 3}; tree 1 (mirrored): 3 <- 1 <- {2, 0}; depth D = 2 each. Unchunked, each
// tree reduces S/2 up (two hops: leaves -> 2 or 1, then -> root) and broadcasts it down (two
// hops); the six directed edges used in each of the four slots are distinct, so every hop is
// L + S/(2B): T = 2D (L + S/(2B)) = 4 (1 us + 50 ms).
TEST(CollectivesClosedForm, TreeAllReduce) {
  const auto trees = double_binary_tree(4);
  ASSERT_EQ(trees[0].depth(), 2);
  ASSERT_EQ(trees[1].depth(), 2);
  TaskGraph g;
  const LinkNetwork net = mesh_network(g, 4, [](int, int) { return kB; }, [](int, int) { return kUs; });
  EXPECT_NEAR(makespan_s(g, net, spec_of(CollectiveOp::AllReduce, "tree", 4, kS)), 2 * 2 * (kL + kS / (2 * kB)), 8 * kPs);
}

// Hierarchical all-reduce, 2 nodes x 4 ranks on a mesh: 100 GB/s, 1 us inside a node, 10 GB/s,
// 5 us between nodes. Intra reduce-scatter: 3 (L_i + S/(4 B_i)); inter all-reduce of the
// S/4 shard on rings of 2: 2 (L_e + S/(8 B_e)); intra all-gather: 3 (L_i + S/(4 B_i)).
// T = 6 (1 us + 2.5 ms) + 2 (5 us + 12.5 ms) = 40.016 ms. Nodes interleaved to check grouping.
TEST(CollectivesClosedForm, HierarchicalAllReduce) {
  const std::vector<int> node{0, 1, 0, 1, 0, 1, 0, 1};
  const double bi = 100 * kGBps, be = 10 * kGBps;
  TaskGraph g;
  const LinkNetwork net = mesh_network(
      g, 8, [&](int a, int b) { return node[a] == node[b] ? bi : be; },
      [&](int a, int b) { return node[a] == node[b] ? kUs : 5 * kUs; });
  CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "hierarchical", 8, kS);
  s.nodes = node;
  const double expect = 6 * (kL + kS / (4 * bi)) + 2 * (5 * kL + kS / (8 * be));
  EXPECT_NEAR(makespan_s(g, net, s), expect, 16 * kPs);
}

// Direct all-to-all on one switch (route i -> j: up_i then down_j, latency 2 x 1 us): every
// rank sends S/n to each of n-1 peers at once; up_i and down_j each carry n-1 equal flows, so
// each flow gets B/(n-1) and all end together: T = 2L + (n-1) S/(nB) = 2 us + 87.5 ms (n = 8).
TEST(CollectivesClosedForm, DirectAllToAll) {
  const int n = 8;
  TaskGraph g;
  const LinkNetwork net = switch_network(g, n, kB, kUs);
  EXPECT_NEAR(makespan_s(g, net, spec_of(CollectiveOp::AllToAll, "direct", n, kS)), 2 * kL + (n - 1) * kS / (n * kB),
              4 * kPs);
}

// Capability-proportional point-to-point from rank 0 to ranks of capability [1, 1, 2] on a
// switch (AsymGroup's example: 12 items -> [3, 3, 6]). The three flows share up_0 at equal
// bytes/s; the small ones end first and the last takes up the rest, so up_0 is busy until all
// S bytes are through: T = 2L + S/B; each down_j carried exactly its slice.
TEST(CollectivesClosedForm, ProportionalPointToPoint) {
  TaskGraph g;
  const LinkNetwork net = switch_network(g, 4, kB, kUs);
  CollectiveSpec s = spec_of(CollectiveOp::PointToPoint, "proportional", 4, 12e8);
  s.weights = {5, 1, 1, 2};  // the sender's weight only splits what senders send
  lower_collective(g, s, net);
  const Trace tr = simulate(g);
  EXPECT_NEAR(to_seconds(tr.makespan), 2 * kL + 12e8 / kB, 4 * kPs);
  const std::vector<double> slices{3e8, 3e8, 6e8};
  for (int j = 1; j < 4; ++j) EXPECT_DOUBLE_EQ(tr.consumed[net.uses(0, j, 1)[1].resource], slices[j - 1]) << j;
}

// Analytic and flow fidelities agree (1e-6 relative) wherever the closed form's assumptions
// hold: each algorithm on the network of its closed-form test above.
TEST(CollectivesClosedForm, AnalyticAgreesWithFlow) {
  struct Case {
    CollectiveSpec spec;
    const char* network;
  };
  std::vector<Case> cases;
  for (CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter})
    cases.push_back({spec_of(op, "ring", 6, kS, 3), "ring"});
  cases.push_back({spec_of(CollectiveOp::Broadcast, "ring", 6, kS, 16), "ring"});
  cases.push_back({spec_of(CollectiveOp::AllReduce, "tree", 4, kS), "mesh"});
  for (CollectiveOp op : {CollectiveOp::AllToAll, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
                          CollectiveOp::AllReduce, CollectiveOp::Broadcast, CollectiveOp::PointToPoint})
    cases.push_back({spec_of(op, "direct", 6, kS), "switch"});
  CollectiveSpec p2p = spec_of(CollectiveOp::PointToPoint, "proportional", 5, kS);
  p2p.weights = {1, 3, 1, 1, 2};
  cases.push_back({p2p, "switch"});
  CollectiveSpec h = spec_of(CollectiveOp::AllReduce, "hierarchical", 6, kS);
  h.nodes = {7, 7, 7, 9, 9, 9};
  cases.push_back({h, "mesh"});
  for (Case& c : cases) {
    const std::string what = std::string(c.spec.algorithm) + " " + to_string(c.spec.op);
    double t[2];
    for (Fidelity f : {Fidelity::Flow, Fidelity::Analytic}) {
      TaskGraph g;
      const int n = static_cast<int>(c.spec.group.size());
      const std::string net_kind = c.network;
      const LinkNetwork net = net_kind == "ring"     ? ring_network(g, n, kB, kUs)
                              : net_kind == "switch" ? switch_network(g, n, kB, kUs)
                                                     : mesh_network(g, n, [](int, int) { return kB; }, [](int, int) { return kUs; });
      c.spec.fidelity = f;
      t[f == Fidelity::Analytic] = makespan_s(g, net, c.spec);
      if (f == Fidelity::Analytic) {
        EXPECT_DOUBLE_EQ(t[1], to_seconds(ceil_ps(analytic_seconds(c.spec, net)))) << what;
      }
    }
    EXPECT_NEAR(t[1] / t[0], 1.0, 1e-6) << what << ": flow " << t[0] << " s, analytic " << t[1] << " s";
  }
}

}  // namespace
}  // namespace placesim::engine
