// Graph::validate on graphs built in code: adjacency, deterministic order, and each bad graph
// rejected at the offending node or edge.
#include <gtest/gtest.h>

#include "models/graph.hpp"

namespace placesim::models {
namespace {

Node op(const std::string& name, int line) {
  Node n;
  n.name = name;
  n.type = "matmul";
  n.loc = SourceLoc{"g.json", line, 5};
  return n;
}

std::string validate_error(Graph& g) {
  try {
    g.validate();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Graph, TopologicalOrderTakesSmallestIndexFirst) {
  // 0 -> 3, 1 -> 3, 2 (isolated), 3 -> 4; ready set {0,1,2} first, then 3, 4.
  // Then a second graph whose edges force a reversal: 2 -> 1 -> 0.
  Graph g;
  for (const char* n : {"n0", "n1", "n2", "n3", "n4"}) g.add_node(op(n, 1));
  g.add_edge(0, 3, 1);
  g.add_edge(1, 3, 1);
  g.add_edge(3, 4, 1);
  g.validate();
  EXPECT_EQ(g.topo_order(), (std::vector<int>{0, 1, 2, 3, 4}));
  const auto ids = [](std::span<const int> s) { return std::vector<int>(s.begin(), s.end()); };
  EXPECT_EQ(ids(g.in_edges(3)), (std::vector<int>{0, 1}));
  EXPECT_EQ(ids(g.out_edges(3)), (std::vector<int>{2}));
  EXPECT_TRUE(g.in_edges(2).empty());
  EXPECT_TRUE(g.out_edges(4).empty());

  Graph r;
  for (const char* n : {"n0", "n1", "n2", "n3"}) r.add_node(op(n, 1));
  r.add_edge(2, 1, 1);
  r.add_edge(1, 0, 1);
  r.validate();
  EXPECT_EQ(r.topo_order(), (std::vector<int>{2, 1, 0, 3}));
}

TEST(Graph, OpsAndParams) {
  Graph g;
  Node w = op("w", 1);
  w.kind = NodeKind::Param;
  w.param_bytes = 8;
  g.add_node(op("b", 2));
  g.add_node(std::move(w));
  g.add_node(op("a", 3));
  g.add_edge(2, 0, 4);  // a -> b
  g.add_edge(1, 0, 8);  // w -> b
  g.validate();
  EXPECT_EQ(g.ops(), (std::vector<int>{2, 0}));
  EXPECT_EQ(g.params(), (std::vector<int>{1}));
  EXPECT_EQ(g.find("a"), 2);
  EXPECT_EQ(g.find("zz"), -1);
}

// find() answers the same before validate (scan), after (index), after a node is added, and in a
// copy whose nodes were renamed (the copy is not indexed until validated).
TEST(Graph, FindBeforeAndAfterValidateAddAndCopy) {
  Graph g;
  for (int i = 0; i < 50; ++i) g.add_node(op("n" + std::to_string(i), 1));
  EXPECT_EQ(g.find("n7"), 7);
  g.validate();
  for (int i = 0; i < 50; ++i) EXPECT_EQ(g.find("n" + std::to_string(i)), i);
  EXPECT_EQ(g.find("n50"), -1);
  g.add_node(op("n50", 1));
  EXPECT_EQ(g.find("n50"), 50);
  Graph copy = g;
  copy.validate();
  Graph renamed = copy;
  renamed.nodes[3].name = "x#0";
  EXPECT_EQ(renamed.find("x#0"), 3);
  EXPECT_EQ(renamed.find("n3"), -1);
  EXPECT_EQ(copy.find("n3"), 3);
}

TEST(Graph, CycleNamesANodeOnIt) {
  // x -> a -> b -> c -> a: x is not on the cycle; the walk back from a finds a, c, b.
  Graph g;
  g.add_node(op("x", 1));
  g.add_node(op("a", 2));
  g.add_node(op("b", 3));
  g.add_node(op("c", 4));
  g.add_edge(0, 1, 1);
  g.add_edge(1, 2, 1);
  g.add_edge(2, 3, 1);
  g.add_edge(3, 1, 1);
  EXPECT_EQ(validate_error(g), "g.json:2:5: cycle through node 'a': a -> b -> c -> a");

  Graph self;
  self.add_node(op("s", 7));
  self.add_edge(0, 0, 1);
  EXPECT_EQ(validate_error(self), "g.json:7:5: cycle through node 's': s -> s");
}

TEST(Graph, BadNodesAndEdges) {
  Graph dup;
  dup.add_node(op("a", 1));
  dup.add_node(op("a", 2));
  EXPECT_EQ(validate_error(dup), "g.json:2:5: duplicate node name 'a' (first defined at g.json:1:5)");

  Graph neg;
  neg.add_node(op("a", 3));
  neg.nodes[0].bytes = -1;
  EXPECT_EQ(validate_error(neg), "g.json:3:5: node 'a': bytes must be >= 0, got -1");

  Graph negdur;
  negdur.add_node(op("a", 3));
  negdur.nodes[0].durations["gpu0"] = -2;
  EXPECT_EQ(validate_error(negdur), "g.json:3:5: node 'a': duration on 'gpu0' must be >= 0, got -2");

  Graph dangling;
  dangling.add_node(op("a", 1));
  dangling.add_edge(0, 5, 1);
  dangling.edges[0].loc = SourceLoc{"g.json", 9, 3};
  EXPECT_EQ(validate_error(dangling), "g.json:9:3: edge 0 -> 5 names a missing node");

  Graph negedge;
  negedge.add_node(op("a", 1));
  negedge.add_node(op("b", 2));
  negedge.add_edge(0, 1, 1);
  negedge.edges[0].time_s = -0.5;
  negedge.edges[0].loc = SourceLoc{"g.json", 9, 3};
  EXPECT_EQ(validate_error(negedge), "g.json:9:3: edge 'a' -> 'b': time must be >= 0, got -0.5");

  Graph into_param;
  into_param.add_node(op("a", 1));
  Node w = op("w", 2);
  w.kind = NodeKind::Param;
  into_param.add_node(std::move(w));
  into_param.add_edge(0, 1, 1);
  into_param.edges[0].loc = SourceLoc{"g.json", 9, 3};
  EXPECT_EQ(validate_error(into_param), "g.json:9:3: edge 'a' -> 'w': a parameter cannot have inputs");
}

}  // namespace
}  // namespace placesim::models
