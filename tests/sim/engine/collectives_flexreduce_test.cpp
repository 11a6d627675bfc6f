// FlexReduce (AsymGroup's Megatron-LM baseline) on nodes of GPUs: each node has an up and a
// down network link (B_e, L_e), each pair of GPUs in a node a link per direction (B_i, L_i);
// a route between nodes crosses the sender's up and the receiver's down link. Every figure is
// worked from flexreduce.cpp's four steps.
#include <gtest/gtest.h>

#include "sim/engine/collectives/link_network.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::kGBps;
using test::kUs;
using test::spec_of;

constexpr double kBe = 10 * kGBps, kBi = 100 * kGBps;
constexpr double kS = 1.2e9;
constexpr double kPs = 1e-12;

struct Nodes {
  LinkNetwork net;
  std::vector<ResourceId> up, down;  // per node
};

// Ranks numbered node by node, `per_node[a]` on node a.
Nodes nodes_network(TaskGraph& g, const std::vector<int>& per_node, std::vector<int>& node_of) {
  Nodes n{LinkNetwork(g), {}, {}};
  for (std::size_t a = 0; a < per_node.size(); ++a) {
    n.up.push_back(n.net.add_link("up" + std::to_string(a), kBe, kUs));
    n.down.push_back(n.net.add_link("down" + std::to_string(a), kBe, kUs));
    for (int l = 0; l < per_node[a]; ++l) node_of.push_back(static_cast<int>(a));
  }
  const int ranks = static_cast<int>(node_of.size());
  std::vector<std::vector<ResourceId>> pair(ranks, std::vector<ResourceId>(ranks, -1));
  for (int i = 0; i < ranks; ++i)
    for (int j = 0; j < ranks; ++j)
      if (i != j && node_of[i] == node_of[j])
        pair[i][j] = n.net.add_link("nv" + std::to_string(i) + ">" + std::to_string(j), kBi, kUs);
  n.net.set_routes([node_of, pair, up = n.up, down = n.down](int i, int j, std::vector<ResourceId>& route) {
    if (node_of[i] == node_of[j]) {
      route.push_back(pair[i][j]);
    } else {
      route.push_back(up[node_of[i]]);
      route.push_back(down[node_of[j]]);
    }
  });
  return n;
}

// N nodes of two GPUs, each rank's portion S/(2N) (w = 1/2, W = N), L = 1 us per link:
//   1. each GPU gets its half of the buffer from its mate:          L + S/(2 B_i)
//   2. each GPU sends each of the 2(N-1) GPUs off its node S/(4N): a node's up link carries
//      4(N-1) equal flows, S (N-1)/N, as does each down link:      2L + S (N-1)/(N B_e)
//      (its mate's S/(4N) over the pair link ends sooner)
//   3. the same back:                                               2L + S (N-1)/(N B_e)
//   4. each GPU sends its mate the rest of its half, (S - S/(2N))/2: L + (2N-1) S/(4N B_i)
// A ring over the 2N GPUs, a node's two adjacent, moves S/(2N) over one up and one down link
// per step: 2(2N-1) (2L + S/(2N B_e)), its links carrying (2N-1)/N S where FlexReduce's carry
// 2(N-1)/N S.
TEST(CollectivesFlexReduce, TwoGpuNodesMatchTheFourStepsWorkedByHand) {
  for (int nodes : {2, 3, 4}) {
    const double N = nodes, L = 1e-6;
    const double expect = 6 * L + kS / (2 * kBi) + 2 * kS * (N - 1) / (N * kBe) + (2 * N - 1) * kS / (4 * N * kBi);
    TaskGraph g;
    std::vector<int> node_of;
    const Nodes net = nodes_network(g, std::vector<int>(nodes, 2), node_of);
    CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "flexreduce", 2 * nodes, kS);
    s.nodes = node_of;
    lower_collective(g, s, net.net);
    const Trace tr = simulate(g);
    EXPECT_NEAR(to_seconds(tr.makespan), expect, 32 * kPs) << nodes << " nodes";
    for (int a = 0; a < nodes; ++a) {
      EXPECT_NEAR(tr.consumed[net.up[a]], 2 * kS * (N - 1) / N, 1e-3) << a;
      EXPECT_NEAR(tr.consumed[net.down[a]], 2 * kS * (N - 1) / N, 1e-3) << a;
    }
    TaskGraph rg;
    std::vector<int> unused;
    const Nodes ring_net = nodes_network(rg, std::vector<int>(nodes, 2), unused);
    const double ring = test::makespan_s(rg, ring_net.net, spec_of(CollectiveOp::AllReduce, "ring", 2 * nodes, kS));
    EXPECT_NEAR(ring, 2 * (2 * N - 1) * (2 * L + kS / (2 * N * kBe)), 4 * nodes * kPs);
    EXPECT_LT(to_seconds(tr.makespan), ring) << nodes << " nodes";
  }
}

// Nodes of 2, 1 and 1 GPUs (AsymGroup's S-systems in small): every node owns a third of the
// buffer, so the two-GPU node's ranks own S/6 each and the others S/3. Each node's up and down
// link carries 2 (N-1)/N S = 4S/3 whatever its GPU count; a ring over the four GPUs puts
// 2 (n-1)/n S = 3S/2 on each. With explicit weights node a sends S (W - W_a)/W in step 2 and
// (N-1) S W_a/W in step 3, and receives the same the other way round.
TEST(CollectivesFlexReduce, EveryNodeLinkCarriesItsShareOnceEachWay) {
  TaskGraph g;
  std::vector<int> node_of;
  const Nodes net = nodes_network(g, {2, 1, 1}, node_of);
  CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "flexreduce", 4, kS);
  s.nodes = node_of;
  lower_collective(g, s, net.net);
  const Trace tr = simulate(g);
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(tr.consumed[net.up[a]], 4 * kS / 3, 1e-3) << a;
    EXPECT_NEAR(tr.consumed[net.down[a]], 4 * kS / 3, 1e-3) << a;
  }
  // Weights 1, 1, 1, 3: W = 6, W_a = 2, 1, 3.
  TaskGraph wg;
  std::vector<int> unused;
  const Nodes wnet = nodes_network(wg, {2, 1, 1}, unused);
  s.weights = {1, 1, 1, 3};
  lower_collective(wg, s, wnet.net);
  const Trace wt = simulate(wg);
  const std::vector<double> node_weight{2, 1, 3};
  for (int a = 0; a < 3; ++a) {
    const double each_way = kS * (6 - node_weight[a]) / 6 + 2 * kS * node_weight[a] / 6;
    EXPECT_NEAR(wt.consumed[wnet.up[a]], each_way, 1e-3) << a;
    EXPECT_NEAR(wt.consumed[wnet.down[a]], each_way, 1e-3) << a;
  }
}

TEST(CollectivesFlexReduce, NeedsANodePerRankAndPositiveWeights) {
  TaskGraph g;
  std::vector<int> node_of;
  const Nodes net = nodes_network(g, {2, 1}, node_of);
  CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "flexreduce", 3, kS);
  EXPECT_THROW(lower_collective(g, s, net.net), InputError);  // no nodes
  s.nodes = node_of;
  s.weights = {1, 0, 1};
  EXPECT_THROW(lower_collective(g, s, net.net), InputError);
  s.weights = {1, 1};
  EXPECT_THROW(lower_collective(g, s, net.net), InputError);
}

}  // namespace
}  // namespace placesim::engine
