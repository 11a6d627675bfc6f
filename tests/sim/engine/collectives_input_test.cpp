// Bad collective input is an InputError with a clear message; the registry lists every
// algorithm with what it implements; the double binary trees are trees.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/collectives/proportional.hpp"
#include "sim/engine/collectives/tree.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::kUs;
using test::spec_of;
using ::testing::HasSubstr;

// Rejected at both fidelities with `message`; where `option` is given, as a CollectiveOptionError
// naming that field.
void expect_rejected(const CollectiveSpec& s, const std::string& message, const std::string& option = "") {
  for (Fidelity f : {Fidelity::Flow, Fidelity::Analytic}) {
    TaskGraph g;
    const LinkNetwork net = switch_network(g, 8, 1e10, kUs);
    CollectiveSpec copy = s;
    copy.fidelity = f;
    try {
      lower_collective(g, copy, net);
      ADD_FAILURE() << "accepted; expected: " << message;
    } catch (const InputError& e) {
      EXPECT_THAT(e.what(), HasSubstr(message));
      if (!option.empty()) {
        const auto* o = dynamic_cast<const CollectiveOptionError*>(&e);
        ASSERT_NE(o, nullptr) << e.what();
        EXPECT_EQ(o->option(), option);
      }
    }
  }
}

TEST(CollectivesInput, BadGroupsAndSizes) {
  CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "ring", 0, 1e6);
  expect_rejected(s, "a group needs at least one member");
  s.group = {3, 1, 3};
  expect_rejected(s, "member 3 appears more than once");
  s = spec_of(CollectiveOp::AllReduce, "ring", 4, 0);
  expect_rejected(s, "bytes must be positive");
  s.bytes = -5;
  expect_rejected(s, "bytes must be positive");
  s = spec_of(CollectiveOp::AllReduce, "ring", 4, 1e6, 0);
  expect_rejected(s, "chunks must be at least 1");
}

TEST(CollectivesInput, UnknownOrUnsupported) {
  expect_rejected(spec_of(CollectiveOp::AllReduce, "butterfly", 4, 1e6), "unknown collective algorithm 'butterfly'");
  expect_rejected(spec_of(CollectiveOp::Broadcast, "tree", 4, 1e6),
                  "algorithm 'tree' does not implement broadcast (it implements: all-reduce)");
  expect_rejected(spec_of(CollectiveOp::AllToAll, "ring", 4, 1e6), "algorithm 'ring' does not implement all-to-all");
  EXPECT_EQ(parse_collective_op("all-to-all"), CollectiveOp::AllToAll);
  try {
    parse_collective_op("allreduce");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown collective operation 'allreduce' (known: all-reduce, all-gather"));
  }
}

TEST(CollectivesInput, AlgorithmOptions) {
  CollectiveSpec h = spec_of(CollectiveOp::AllReduce, "hierarchical", 4, 1e6);
  expect_rejected(h, "hierarchical needs a node per rank (4), got 0");
  h.nodes = {0, 0, 0, 1};
  expect_rejected(h, "as many ranks on every node; node 0 has 3, node 1 has 1");
  CollectiveSpec p = spec_of(CollectiveOp::PointToPoint, "proportional", 4, 1e6);
  expect_rejected(p, "collective 'coll': proportional needs `weights`, one per rank (4), got 0", "weights");
  p.weights = {1, 2, 0, 1};
  expect_rejected(p, "`weights` must be positive", "weights");
  p.weights = {1, 1, 1, 1};
  p.senders = 4;
  expect_rejected(p, "1 <= senders < 4", "senders");
  CollectiveSpec a = spec_of(CollectiveOp::AllReduce, "ring", 4, 1e6);
  a.after = {{}};
  expect_rejected(a, "`after` has 1 entries for a group of 4");
}

// AsymGroup's collectives: capabilities for every operation, groups for all-gather and nowhere else.
TEST(CollectivesInput, WeightsAndGroups) {
  CollectiveSpec rs = spec_of(CollectiveOp::ReduceScatter, "proportional", 3, 1e6);
  rs.weights = {1, 2};
  expect_rejected(rs, "collective 'coll': proportional needs `weights`, one per rank (3), got 2", "weights");
  rs.weights = {1, -2, 1};
  expect_rejected(rs, "collective 'coll': `weights` must be positive and finite, got -2", "weights");
  rs.weights = {1, 2, 1};
  rs.groups = {0, 0, 1};
  expect_rejected(rs, "collective 'coll': algorithm 'proportional' takes no `groups` for reduce-scatter", "groups");

  CollectiveSpec ag = spec_of(CollectiveOp::AllGather, "proportional", 4, 1e6);
  ag.weights = {1, 1, 2, 2};
  expect_rejected(ag, "collective 'coll': proportional all-gather needs `groups`, a group index per rank (4), got 0",
                  "groups");
  ag.groups = {0, 1, 1};
  expect_rejected(ag, "a group index per rank (4), got 3", "groups");
  ag.groups = {0, 2, 2, 0};
  expect_rejected(ag, "collective 'coll': `groups` leaves group 1 of 0..2 empty", "groups");
  ag.groups = {0, -1, 1, 1};
  expect_rejected(ag, "collective 'coll': `groups` are numbered from 0, got -1", "groups");
  ag.groups = {1, 1, 0, 0};
  ag.weights = {};
  expect_rejected(ag, "proportional needs `weights`", "weights");

  CollectiveSpec ring = spec_of(CollectiveOp::AllGather, "ring", 4, 1e6);
  ring.groups = {0, 0, 1, 1};
  expect_rejected(ring, "collective 'coll': algorithm 'ring' takes no `groups` for all-gather", "groups");
}

TEST(CollectivesRegistry, ListsEveryAlgorithm) {
  const auto& all = collective_algorithms().all();
  for (const char* name : {"direct", "flexreduce", "hierarchical", "proportional", "ring", "tree"}) {
    ASSERT_TRUE(all.count(name)) << name;
    EXPECT_FALSE(all.at(name).description.empty());
    EXPECT_FALSE(all.at(name).ops.empty());
  }
  EXPECT_EQ(all.size(), 6u);
  using Op = CollectiveOp;
  EXPECT_EQ(all.at("proportional").ops, (std::vector<Op>{Op::AllGather, Op::ReduceScatter, Op::PointToPoint}));
  EXPECT_EQ(all.at("flexreduce").ops, (std::vector<Op>{Op::AllReduce}));
  for (auto& [name, a] : all)
    EXPECT_EQ(a.grouped, name == "proportional" ? std::vector<Op>{Op::AllGather} : std::vector<Op>{}) << name;
}

// Each tree: one root, n-1 parent links, every rank reaches the root, at most two children;
// in the double tree no rank but at most one is an inner node of both (NCCL's property).
TEST(CollectivesTree, DoubleBinaryTreesAreTrees) {
  for (int n = 2; n <= 33; ++n) {
    const auto trees = double_binary_tree(n);
    std::vector<int> inner(n, 0);
    for (const BinaryTree& t : trees) {
      int roots = 0;
      for (int r = 0; r < n; ++r) {
        roots += t.parent[r] < 0;
        EXPECT_LE(t.children[r].size(), 2u);
        inner[r] += !t.children[r].empty();
        int hops = 0;
        for (int x = r; t.parent[x] >= 0 && hops <= n; x = t.parent[x]) ++hops;
        EXPECT_LE(hops, n - 1) << "cycle at n = " << n;
      }
      EXPECT_EQ(roots, 1);
    }
    int both = 0;
    for (int r = 0; r < n; ++r) both += inner[r] == 2;
    EXPECT_LE(both, 1) << n;
  }
}

// AsymGroup V-B's examples: 12 items to capabilities [1, 1, 2] -> [3, 3, 6]; 8 to [3, 3] ->
// [4, 4]. Slices sum to S and are proportional to the weights.
TEST(CollectivesProportional, SlicesFollowTheWeights) {
  EXPECT_EQ(proportional_slices(12, {1, 1, 2}), (std::vector<double>{3, 3, 6}));
  EXPECT_EQ(proportional_slices(8, {3, 3}), (std::vector<double>{4, 4}));
  const std::vector<double> w{0.7, 1.9, 3.1, 0.3};
  const std::vector<double> s = proportional_slices(1e9, w);
  double sum = 0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    sum += s[i];
    EXPECT_NEAR(s[i] / w[i], s[0] / w[0], 1e-9 * s[0] / w[0]);
  }
  EXPECT_NEAR(sum, 1e9, 1e-6);
}

}  // namespace
}  // namespace placesim::engine
