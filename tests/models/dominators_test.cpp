// Partition points by dominator analysis (SortingHat 3.1) on hand-drawn graphs, and the split
// into submodels with placeholders.
#include <gtest/gtest.h>

#include "models/transform/dominators.hpp"

namespace placesim::models {
namespace {

// Ops by name (a name starting with 'w' is a parameter), edges "a>b" of 1 byte.
Graph build(const std::vector<std::string>& nodes, const std::vector<std::string>& edges) {
  Graph g;
  for (const std::string& name : nodes) {
    Node n;
    n.name = name;
    n.kind = name[0] == 'w' ? NodeKind::Param : NodeKind::Op;
    n.output_bytes = 1;
    g.add_node(std::move(n));
  }
  for (const std::string& e : edges) {
    const auto gt = e.find('>');
    g.add_edge(g.find(e.substr(0, gt)), g.find(e.substr(gt + 1)), 1);
  }
  g.validate();
  return g;
}

std::vector<std::string> names(const Graph& g, const std::vector<int>& v) {
  std::vector<std::string> out;
  for (int i : v) out.push_back(g.nodes[i].name);
  return out;
}

// SortingHat Fig. 6(a): A -> B, A -> C, B -> D, C -> D, D -> E, D -> F, E -> G, F -> G. The four
// paths A-B-D-E-G, A-B-D-F-G, A-C-D-E-G, A-C-D-F-G all pass D; A and G are the input and the
// output. Fig. 6(b): submodel 1 = {A, B, C, D}, submodel 2 = {placeholder of D, E, F, G}.
TEST(Dominators, SortingHatFigure6) {
  const Graph g = build({"A", "B", "C", "D", "E", "F", "G"},
                        {"A>B", "A>C", "B>D", "C>D", "D>E", "D>F", "E>G", "F>G"});
  EXPECT_EQ(names(g, partition_points(g)), std::vector<std::string>{"D"});
  const Partition p = partition_by_dominators(g, 1);
  EXPECT_EQ(p.submodels, 2);
  EXPECT_EQ(p.submodel_of, (std::vector<int>{0, 0, 0, 0, 1, 1, 1}));
  const std::vector<Submodel> subs = split_submodels(g, p);
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(names(subs[0].graph, subs[0].graph.topo_order()), (std::vector<std::string>{"A", "B", "C", "D"}));
  const Graph& s1 = subs[1].graph;
  EXPECT_EQ(s1.name, ".sub1");
  EXPECT_EQ(names(s1, s1.topo_order()), (std::vector<std::string>{"D.placeholder", "E", "F", "G"}));
  const int ph = s1.find("D.placeholder");
  EXPECT_EQ(s1.nodes[ph].type, "placeholder");
  EXPECT_EQ(s1.out_edges(ph).size(), 2u);
  EXPECT_EQ(subs[1].original, (std::vector<int>{4, 5, 6, -1}));
}

// A chain a -> b -> c -> d: every inner op is a point. One point per submodel: {a, b}, {c},
// {d}; two: {a, b, c}, {d}.
TEST(Dominators, ChainAndPointsPerSubmodel) {
  const Graph g = build({"a", "b", "c", "d"}, {"a>b", "b>c", "c>d"});
  EXPECT_EQ(names(g, partition_points(g)), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(partition_by_dominators(g, 1).submodel_of, (std::vector<int>{0, 0, 1, 2}));
  const Partition two = partition_by_dominators(g, 2);
  EXPECT_EQ(two.submodels, 2);
  EXPECT_EQ(two.submodel_of, (std::vector<int>{0, 0, 0, 1}));
  EXPECT_THROW(partition_by_dominators(g, 0), InputError);
}

// A skip connection a -> b -> c -> d with a -> c: the path a-c-d avoids b, so c is the only point.
TEST(Dominators, SkipConnection) {
  const Graph g = build({"a", "b", "c", "d"}, {"a>b", "b>c", "a>c", "c>d"});
  EXPECT_EQ(names(g, partition_points(g)), std::vector<std::string>{"c"});
}

// Two inputs x1, x2 meet at m, then m -> n -> o: from the virtual input every path passes m and
// n. Two disjoint chains share no op: no point, one submodel.
TEST(Dominators, SeveralInputsAndDisjointChains) {
  const Graph g = build({"x1", "x2", "m", "n", "o"}, {"x1>m", "x2>m", "m>n", "n>o"});
  EXPECT_EQ(names(g, partition_points(g)), (std::vector<std::string>{"m", "n"}));
  const Graph h = build({"a", "b", "c", "d"}, {"a>b", "c>d"});
  EXPECT_TRUE(partition_points(h).empty());
  EXPECT_EQ(partition_by_dominators(h, 1).submodels, 1);
}

// Parameters are not on data paths; a weight read in two submodels is copied into both.
TEST(Dominators, SharedParameterIsCopied) {
  const Graph g = build({"w", "a", "b", "c"}, {"w>a", "a>b", "b>c", "w>c"});
  const Partition p = partition_by_dominators(g, 1);
  EXPECT_EQ(names(g, p.points), std::vector<std::string>{"b"});
  EXPECT_EQ(p.submodel_of, (std::vector<int>{0, 0, 0, 1}));
  const std::vector<Submodel> subs = split_submodels(g, p);
  EXPECT_GE(subs[0].graph.find("w"), 0);
  EXPECT_GE(subs[1].graph.find("w"), 0);
  EXPECT_EQ(subs[1].graph.nodes.size(), 3u);  // c, w, b.placeholder
}

}  // namespace
}  // namespace placesim::models
