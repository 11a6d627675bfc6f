// Fusion-rule coarsening (MOIRAI Algorithm 1) on hand-drawn graphs with Table I's rules:
// r1 = [conv, bn], r2 = [conv, bn, relu], r3 = [conv, bn, add, relu].
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "models/transform/fusion.hpp"

namespace placesim::models {
namespace {

// Ops named and typed "name:type", edges "a>b"; each op has flops 1, bytes 10, output_bytes 2,
// each edge 2 bytes.
Graph build(const std::vector<std::string>& ops, const std::vector<std::string>& edges) {
  Graph g;
  for (const std::string& o : ops) {
    Node n;
    const auto colon = o.find(':');
    n.name = o.substr(0, colon);
    n.type = o.substr(colon + 1);
    n.kind = n.type == "param" ? NodeKind::Param : NodeKind::Op;
    n.flops = n.kind == NodeKind::Op ? 1 : 0;
    n.bytes = n.kind == NodeKind::Op ? 10 : 0;
    n.output_bytes = 2;
    n.param_bytes = n.kind == NodeKind::Param ? 100 : 0;
    g.add_node(std::move(n));
  }
  for (const std::string& e : edges) {
    const auto gt = e.find('>');
    g.add_edge(g.find(e.substr(0, gt)), g.find(e.substr(gt + 1)), 2);
  }
  g.validate();
  return g;
}

std::vector<std::string> names(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes) out.push_back(n.name);
  return out;
}

// conv -> bn -> relu -> pool: conv, bn is r1 (fused), then conv+bn, relu is r2 (fused); pool
// matches nothing. The fused op: flops 3, bytes 30 minus twice the two internal 2-byte edges.
TEST(Fusion, ChainFusesTheLongestRule) {
  const Graph g = build({"c:conv", "b:bn", "r:relu", "p:pool"}, {"c>b", "b>r", "r>p"});
  const Coarsened c = coarsen(g, eigen_fusion_rules());
  EXPECT_EQ(names(c.graph), (std::vector<std::string>{"c+b+r", "p"}));
  const Node& f = c.graph.nodes[0];
  EXPECT_EQ(f.type, "conv+bn+relu");
  EXPECT_EQ(f.flops, 3);
  EXPECT_EQ(f.bytes, 30 - 2 * 2 * 2);
  EXPECT_EQ(f.output_bytes, 2);
  EXPECT_EQ(c.group_of, (std::vector<int>{0, 0, 0, 1}));
  ASSERT_EQ(c.graph.edges.size(), 1u);
  EXPECT_EQ(c.graph.edges[0].src, 0);
  EXPECT_EQ(c.graph.edges[0].dst, 1);
}

// bn's output feeds relu and pool (multi-output): conv, bn fuse (conv has one consumer), but
// conv+bn is not fused with relu.
TEST(Fusion, MultiOutputIsNotFused) {
  const Graph g = build({"c:conv", "b:bn", "r:relu", "p:pool"}, {"c>b", "b>r", "b>p"});
  EXPECT_EQ(names(coarsen(g, eigen_fusion_rules()).graph), (std::vector<std::string>{"c+b", "r", "p"}));
}

// MOIRAI's Fig. 7 situation: an upper branch a1 (add, feeding r1 and x: multi-output) -> r1
// (relu) -> a2, and a lower branch c (conv) -> b (bn) -> a2 (add, two inputs) -> r2 (relu).
// a1, r1 stay apart (multi-output); r1, a2 is no part of a rule; c, b fuse (r1); conv+bn, add
// is part of r3 (bound); with r2 it completes r3 through the multi-input connection into a2.
TEST(Fusion, MultiInputCompletesTheRule) {
  const Graph g = build({"a1:add", "r1:relu", "x:pool", "c:conv", "b:bn", "a2:add", "r2:relu"},
                        {"a1>r1", "a1>x", "r1>a2", "c>b", "b>a2", "a2>r2"});
  const Coarsened c = coarsen(g, eigen_fusion_rules());
  EXPECT_EQ(names(c.graph), (std::vector<std::string>{"a1", "r1", "x", "c+b+a2+r2"}));
  EXPECT_EQ(c.graph.nodes[3].type, "conv+bn+add+relu");
  // r1 -> a2 now enters the fused op.
  ASSERT_EQ(c.graph.in_edges(3).size(), 1u);
  EXPECT_EQ(c.graph.edges[c.graph.in_edges(3)[0]].src, 1);
}

// conv -> bn -> add -> pool: conv+bn is fused, conv+bn+add bound, and add -> pool completes no
// rule: unbind releases the bound group into conv+bn and add, keeping the fused pair.
TEST(Fusion, UnbindReleasesIncompleteGroups) {
  const Graph g = build({"c:conv", "b:bn", "a:add", "p:pool"}, {"c>b", "b>a", "a>p"});
  EXPECT_EQ(names(coarsen(g, eigen_fusion_rules()).graph), (std::vector<std::string>{"c+b", "a", "p"}));
  // add -> relu alone is part of r3 but never completes it: both stay single.
  const Graph h = build({"a:add", "r:relu"}, {"a>r"});
  EXPECT_EQ(names(coarsen(h, eigen_fusion_rules()).graph), (std::vector<std::string>{"a", "r"}));
}

// A weight read by both conv and bn gives the fused op one edge; durations add up over the
// devices both members list.
TEST(Fusion, ParametersAndDurations) {
  Graph g = build({"w:param", "c:conv", "b:bn"}, {"w>c", "w>b", "c>b"});
  g.nodes[1].durations = {{"gpu0", 1.0}, {"cpu0", 4.0}};
  g.nodes[2].durations = {{"gpu0", 0.5}};
  const Coarsened c = coarsen(g, eigen_fusion_rules());
  EXPECT_EQ(names(c.graph), (std::vector<std::string>{"w", "c+b"}));
  EXPECT_EQ(c.graph.edges.size(), 1u);
  EXPECT_EQ(c.graph.nodes[1].durations, (std::map<std::string, double>{{"gpu0", 1.5}}));
}

std::string error_of(const std::string& text) {
  try {
    parse_fusion_rules(Yaml::load_string(text, "rules.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Fusion, RulesFromYaml) {
  EXPECT_EQ(parse_fusion_rules(Yaml::load_string("- [conv, bn]\n- [matmul, add, gelu]\n", "rules.yaml")),
            (std::vector<FusionRule>{{"conv", "bn"}, {"matmul", "add", "gelu"}}));
  EXPECT_EQ(error_of("- [conv, bn]\n- [relu]\n"), "rules.yaml:2:3: a fusion rule needs at least two op types, got 1");
  EXPECT_EQ(error_of("- [conv, bn]\n- relu\n"),
            "rules.yaml:2:3: expected a fusion rule: a list of op types such as [conv, bn, relu]");
  EXPECT_EQ(error_of("rules: 1"),
            "rules.yaml:1:1: expected a list of fusion rules, each a list of op types: [[conv, bn], ...]");
}

}  // namespace
}  // namespace placesim::models

namespace placesim::models {
namespace {

// GEMM epilogues on one GPT-2 layer: embedding, ln1, qkv matmul, attention, out matmul,
// residual add, ln2, up matmul, gelu, down matmul, residual add, final ln, lm_head = 13 ops.
// [matmul, add] fuses out+add and down+add, [matmul, gelu] fuses up+gelu; qkv feeds attention
// and lm_head ends the graph, so they stay: 13 - 3 = 10 nodes of ops. Table I fuses nothing.
TEST(Fusion, EpilogueRulesOnATransformerLayer) {
  TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 1;
  spec.seq = 16;
  const Graph g = generate_transformer(spec);
  const auto ops = [](const Graph& x) { return x.ops().size(); };
  ASSERT_EQ(ops(g), 13u);
  EXPECT_EQ(ops(coarsen(g, *fusion_rule_set("epilogue")).graph), 10u);
  EXPECT_EQ(ops(coarsen(g, *fusion_rule_set("eigen")).graph), 13u);
  EXPECT_EQ(fusion_rule_set("tvm"), nullptr);
}

}  // namespace
}  // namespace placesim::models
