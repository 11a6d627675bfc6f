// The critical path on a hand-drawn diamond, with and without edge times.
#include <gtest/gtest.h>

#include "models/transform/critical_path.hpp"

namespace placesim::models {
namespace {

// a(1) -> b(5) -> d(1) and a(1) -> c(2) -> d(1): the path through b takes 7, through c 4.
// With 10 s on the edge a -> c, the path through c takes 1 + 10 + 2 + 1 = 14.
TEST(CriticalPath, Diamond) {
  Graph g;
  for (const char* n : {"a", "b", "c", "d"}) {
    Node node;
    node.name = n;
    g.add_node(node);
  }
  g.add_edge(0, 1, 0);
  const int ac = g.add_edge(0, 2, 0);
  g.add_edge(1, 3, 0);
  g.add_edge(2, 3, 0);
  g.validate();
  const std::vector<double> t = {1, 5, 2, 1};
  const auto node_time = [&](int v) { return t[v]; };
  const CriticalPath cp = critical_path(g, node_time);
  EXPECT_EQ(cp.length, 7);
  EXPECT_EQ(cp.nodes, (std::vector<int>{0, 1, 3}));
  const CriticalPath slow = critical_path(g, node_time, [&](int e) { return e == ac ? 10.0 : 0.0; });
  EXPECT_EQ(slow.length, 14);
  EXPECT_EQ(slow.nodes, (std::vector<int>{0, 2, 3}));
}

TEST(CriticalPath, EmptyGraph) {
  Graph g;
  g.validate();
  const CriticalPath cp = critical_path(g, [](int) { return 1.0; });
  EXPECT_EQ(cp.length, 0);
  EXPECT_TRUE(cp.nodes.empty());
}

}  // namespace
}  // namespace placesim::models
