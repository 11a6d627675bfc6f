// The expert load of a mixture-of-experts step: sampled loads route each token to top_k distinct
// experts and sum to tokens x top_k, the same seed gives the same graph and another seed another
// load; a given load is what the graph's experts process.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "tests/models/spec_of.hpp"
#include "models/generators/transformer_moe.hpp"

namespace placesim::models {
namespace {

// Tokens the expert's up projection processes, 0 when it runs no op.
double expert_tokens(const Graph& g, int layer, int e) {
  const int v = g.find("l" + std::to_string(layer) + ".expert" + std::to_string(e) + ".up");
  if (v < 0) return 0;
  const auto& s = std::get<GemmShape>(g.nodes[v].shape);
  return s.batch * s.m;
}

TEST(MoeLoad, EachTokenGetsTopKDistinctExperts) {
  std::mt19937_64 rng(7);
  for (int k : {1, 2, 8}) {
    const std::vector<int> routes = route_tokens(rng, 8, k, 500);
    ASSERT_EQ(routes.size(), 500u * k);
    for (size_t t = 0; t < 500; ++t) {
      const std::set<int> experts(routes.begin() + t * k, routes.begin() + (t + 1) * k);
      EXPECT_EQ(experts.size(), static_cast<size_t>(k)) << "token " << t;
      EXPECT_GE(*experts.begin(), 0);
      EXPECT_LT(*experts.rbegin(), 8);
    }
  }
}

// Decode: tokens = batch; prefill: batch x seq. Every layer's loads sum to tokens x top_k.
TEST(MoeLoad, SampledLoadsSumToTokensTimesTopK) {
  struct Case {
    TransformerSpec spec;
    long routed;
  };
  for (const Case& c : {Case{spec_of("mixtral-8x7b", Phase::Decode, 5, 64, 3), 5 * 2},
                        Case{spec_of("mixtral-8x7b", Phase::Prefill, 2, 16, 3), 2 * 16 * 2},
                        Case{spec_of("qwen2-57b-a14b", Phase::Decode, 3, 64, 2), 3 * 8},
                        Case{spec_of("phimoe", Phase::Prefill, 1, 40, 2), 40 * 2}}) {
    const TransformerArch& arch = find_transformer_arch(c.spec.arch);
    const auto loads = expert_loads(arch, c.spec, c.spec.layers);
    const Graph g = generate_transformer(c.spec);
    ASSERT_EQ(loads.size(), static_cast<size_t>(c.spec.layers));
    for (int l = 0; l < c.spec.layers; ++l) {
      EXPECT_EQ(std::accumulate(loads[l].begin(), loads[l].end(), 0L), c.routed) << g.name << " l" << l;
      double in_graph = 0;
      for (int e = 0; e < arch.moe.experts; ++e) {
        EXPECT_EQ(expert_tokens(g, l, e), static_cast<double>(loads[l][e])) << g.name << " l" << l << " e" << e;
        in_graph += expert_tokens(g, l, e);
      }
      EXPECT_EQ(in_graph, static_cast<double>(c.routed)) << g.name;
    }
  }
}

void expect_same_graph(const Graph& a, const Graph& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  ASSERT_EQ(a.edges.size(), b.edges.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].name, b.nodes[i].name);
    EXPECT_EQ(a.nodes[i].flops, b.nodes[i].flops);
    EXPECT_EQ(a.nodes[i].bytes, b.nodes[i].bytes);
    EXPECT_EQ(a.nodes[i].param_bytes, b.nodes[i].param_bytes);
  }
  for (size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].src, b.edges[i].src);
    EXPECT_EQ(a.edges[i].dst, b.edges[i].dst);
    EXPECT_EQ(a.edges[i].bytes, b.edges[i].bytes);
  }
}

TEST(MoeLoad, SameSeedSameGraphOtherSeedOtherLoad) {
  TransformerSpec s = spec_of("mixtral-8x7b", Phase::Decode, 4, 32, 4);
  s.seed = 11;
  expect_same_graph(generate_transformer(s), generate_transformer(s));
  const auto loads11 = expert_loads(find_transformer_arch(s.arch), s, 4);
  s.seed = 12;
  EXPECT_NE(expert_loads(find_transformer_arch(s.arch), s, 4), loads11);
}

// The decode steps of a generation each route their own tokens (seed + the step's KV length).
TEST(MoeLoad, GenerationStepsRouteDifferently) {
  TransformerSpec s = spec_of("mixtral-8x7b", Phase::Generate, 4, 32, 4);
  s.output = 3;
  const Generation gen = transformer_generation(s);
  const Graph a = gen.decode(33), b = gen.decode(34);
  std::vector<double> ta, tb;
  for (int e = 0; e < 8; ++e) ta.push_back(expert_tokens(a, 0, e)), tb.push_back(expert_tokens(b, 0, e));
  EXPECT_NE(ta, tb);
  expect_same_graph(gen.decode(33), a);
}

// Decode, batch 4, top 2: 8 routes per layer. One list for every layer, or one per layer; an
// expert with no tokens runs no op but keeps its three weights.
TEST(MoeLoad, AGivenLoadIsUsedAsGiven) {
  TransformerSpec s = spec_of("mixtral-8x7b", Phase::Decode, 4, 32, 2);
  s.expert_load = {{2, 0, 1, 1, 0, 2, 1, 1}};
  Graph g = generate_transformer(s);
  for (int l = 0; l < 2; ++l)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(expert_tokens(g, l, e), s.expert_load[0][e]) << l << " " << e;
  for (const char* w : {"l1.expert1.up.w", "l1.expert1.gate.w", "l1.expert1.down.w"}) {
    const int p = g.find(w);
    ASSERT_GE(p, 0) << w;
    EXPECT_EQ(g.nodes[p].kind, NodeKind::Param);
    EXPECT_EQ(g.nodes[p].param_bytes, 4096.0 * 14336 * 2) << w;  // h x f in fp16
    EXPECT_TRUE(g.out_edges(p).empty()) << w;
  }
  EXPECT_LT(g.find("l1.expert1.up"), 0);

  s.expert_load = {{2, 0, 1, 1, 0, 2, 1, 1}, {0, 0, 0, 4, 4, 0, 0, 0}};
  g = generate_transformer(s);
  for (int l = 0; l < 2; ++l)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(expert_tokens(g, l, e), s.expert_load[l][e]) << l << " " << e;
  // Expert 3 of layer 1 processes all 4 tokens: its up projection is a [4, 4096] x [4096, 14336]
  // gemm reading the 4 rows routed to it (4 x 4096 x 2 bytes).
  const int up = g.find("l1.expert3.up");
  EXPECT_EQ(g.nodes[up].flops, 2.0 * 4 * 4096 * 14336);
  for (int e : g.in_edges(up))
    if (g.nodes[g.edges[e].src].name == "l1.ln2") {
      EXPECT_EQ(g.edges[e].bytes, 4.0 * 4096 * 2);
    }
}

TEST(MoeLoad, GeneratorRejectsWhatTheParserRejects) {
  TransformerSpec s = spec_of("mixtral-8x7b", Phase::Decode, 4, 32, 2);
  s.top_k = 9;
  EXPECT_THROW(generate_transformer(s), InputError);
  s.top_k = 0;
  s.expert_load = {{2, 0, 1, 1, 0, 2, 1}};
  EXPECT_THROW(generate_transformer(s), InputError);
  s.expert_load = {{1}, {2}, {3}};
  EXPECT_THROW(generate_transformer(s), InputError);
}

}  // namespace
}  // namespace placesim::models
