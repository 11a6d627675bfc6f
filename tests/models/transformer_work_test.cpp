// Work of generated transformer graphs against hand formulas: total flops, KV cache, structure,
// and agreement between op- and layer-level graphs.
#include <gtest/gtest.h>

#include "tests/models/spec_of.hpp"
#include "models/generators/transformer.hpp"
#include "sums.hpp"

namespace placesim::models {
namespace {

// A forward pass costs about 2 flops per matmul weight per token, plus attention:
//   flops ~= 2 * N * P_matmul + L * (4*B*q*kv*h + 5*B*H*q*kv)
// where P_matmul counts the weights used as matmul operands (every parameter except the
// embedding lookup tables, biases and norms; a tied lm_head counts the table once more).
// What the formula leaves out (biases, norms, residual adds, activations) is a few flops per
// element, so the graph's total lies slightly above it.
TEST(TransformerWork, Gpt2LargePrefillFlops) {
  const double B = 1, S = 1024, h = 1280, H = 20, L = 36, V = 50257;
  // P_matmul = L*12h^2 + h*V (tied lm_head)
  const double p_matmul = L * 12 * h * h + h * V;
  const double expected = 2 * (B * S) * p_matmul + L * (4 * B * S * S * h + 5 * B * H * S * S);
  const double total = test::totals(generate_transformer(spec_of("gpt2-large", Phase::Prefill, 1, 1024))).flops;
  // Left out per layer: biases 9Nh, norms 16Nh, adds 2Nh, GELU 8*N*4h = 59Nh, against the
  // matmuls' 24Nh^2: 59 / (24*1280) = 0.2%.
  EXPECT_GT(total, expected);
  EXPECT_NEAR(total / expected, 1.0, 0.003);
}

TEST(TransformerWork, Llama2_7bDecodeFlops) {
  const double B = 4, S = 512, h = 4096, H = 32, f = 11008, L = 32, V = 32000;
  // decode: N = B tokens, each attending to kv = S positions
  const double p_matmul = L * (4 * h * h + 3 * h * f) + h * V;
  const double expected = 2 * B * p_matmul + L * (4 * B * 1 * S * h + 5 * B * H * 1 * S);
  const double total = test::totals(generate_transformer(spec_of("llama2-7b", Phase::Decode, 4, 512))).flops;
  // Left out per layer: norms 8Nh, adds 2Nh, SwiGLU 5Nf: under 0.01% of 2N(4h^2+3hf).
  EXPECT_GT(total, expected);
  EXPECT_NEAR(total / expected, 1.0, 1e-3);
}

TEST(TransformerWork, Llama2_70bPrefillUsesGroupedKv) {
  // One layer of 70B: qkv is [N,h] x [h, h + 2*1024]; attention scores use all 64 query heads.
  const double B = 2, S = 256, N = B * S, h = 8192, kvd = 8 * 128;
  const Graph g = generate_transformer(spec_of("llama2-70b", Phase::Prefill, 2, 256, 1));
  const Node& qkv = g.nodes[g.find("l0.qkv")];
  EXPECT_EQ(qkv.flops, 2 * N * h * (h + 2 * kvd));
  EXPECT_EQ(qkv.output_bytes, 2 * N * (h + 2 * kvd));  // fp16 activations
  const Node& attn = g.nodes[g.find("l0.attn")];
  EXPECT_EQ(attn.flops, 4 * B * S * S * h + 5 * B * 64 * S * S);
  EXPECT_EQ(attn.bytes, 2 * (N * h + 2 * B * S * kvd + N * h));
  EXPECT_EQ(attn.state_bytes, 0);  // prefill: K/V are the qkv activation
}

TEST(TransformerWork, DecodeKvCacheBytes) {
  // Per layer: 2 (K and V) * B * S * kv_heads * head_dim * 2 bytes (fp16).
  // LLaMA-2 7B, B=2, S=1000: 2*2*1000*4096*2 = 32,768,000; x32 layers = 1,048,576,000.
  const Graph g = generate_transformer(spec_of("llama2-7b", Phase::Decode, 2, 1000));
  EXPECT_EQ(g.nodes[g.find("l0.attn")].state_bytes, 32'768'000.0);
  EXPECT_EQ(test::totals(g).state_bytes, 1'048'576'000.0);
  // LLaMA-2 70B, GQA: 2*1*4096*(8*128)*2 = 16,777,216 per layer (not 8x that).
  const Graph g70 = generate_transformer(spec_of("llama2-70b", Phase::Decode, 1, 4096, 2));
  EXPECT_EQ(test::totals(g70).state_bytes, 2 * 16'777'216.0);
  // int8 is weight-only: the cache stays fp16, so the same bytes as fp16.
  const Graph g8 = generate_transformer(spec_of("llama2-7b", Phase::Decode, 2, 1000, 0, DType::INT8));
  EXPECT_EQ(test::totals(g8).state_bytes, 1'048'576'000.0);
  // fp32 doubles it.
  const Graph g32 = generate_transformer(spec_of("llama2-7b", Phase::Decode, 2, 1000, 0, DType::FP32));
  EXPECT_EQ(test::totals(g32).state_bytes, 2 * 1'048'576'000.0);
  // prefill holds none
  EXPECT_EQ(test::totals(generate_transformer(spec_of("llama2-7b", Phase::Prefill, 2, 100))).state_bytes, 0);
}

TEST(TransformerWork, OpAndLayerGranularityAgree) {
  const std::vector<TransformerSpec> specs = {
      spec_of("gpt2-large", Phase::Prefill, 1, 128, 3),
      spec_of("gpt2-xl", Phase::Decode, 8, 1024, 2, DType::FP32),
      spec_of("openllama-3b", Phase::Prefill, 4, 64, 2, DType::BF16),
      spec_of("llama2-70b", Phase::Decode, 2, 300, 2, DType::INT4),
  };
  for (TransformerSpec s : specs) {
    const test::Totals op = test::totals(generate_transformer(s));
    s.granularity = Granularity::Layer;
    const Graph lg = generate_transformer(s);
    const test::Totals layer = test::totals(lg);
    SCOPED_TRACE(lg.name);
    EXPECT_NEAR(layer.flops, op.flops, 1e-12 * op.flops);
    EXPECT_NEAR(layer.bytes, op.bytes, 1e-12 * op.bytes);
    EXPECT_EQ(layer.state_bytes, op.state_bytes);
    EXPECT_NEAR(layer.param_bytes, op.param_bytes, 1e-12 * op.param_bytes);
    EXPECT_EQ(layer.ops, s.layers + 2);  // embedding, each layer, head
  }
}

TEST(TransformerWork, OpLevelLayerStructure) {
  // One LLaMA layer: ln1, qkv, attn, out, add1, ln2, up, gate, act, down, add2.
  const Graph g = generate_transformer(spec_of("openllama-3b", Phase::Prefill, 1, 32, 1));
  std::vector<std::string> names;
  for (int v : g.ops()) names.push_back(g.nodes[v].name);
  const std::vector<std::string> expected = {"embed", "l0.ln1", "l0.qkv",  "l0.attn", "l0.out",
                                             "l0.add1", "l0.ln2", "l0.up", "l0.gate", "l0.act",
                                             "l0.down", "l0.add2", "final_norm", "lm_head"};
  EXPECT_EQ(names, expected);
  // Every edge from a weight carries its size; every other edge its producer's output.
  for (const Edge& e : g.edges) {
    const Node& src = g.nodes[e.src];
    EXPECT_EQ(e.bytes, src.kind == NodeKind::Param ? src.param_bytes : src.output_bytes) << src.name;
  }
  // The residual add reads the layer input and the attention output.
  const int add1 = g.find("l0.add1");
  ASSERT_EQ(g.in_edges(add1).size(), 2u);
  EXPECT_EQ(g.nodes[g.edges[g.in_edges(add1)[0]].src].name, "embed");
  EXPECT_EQ(g.nodes[g.edges[g.in_edges(add1)[1]].src].name, "l0.out");
}

TEST(TransformerWork, MatmulAndElementwiseFormulas) {
  // GPT-2 large, B=2, S=10 -> N=20, fp16 (2 bytes), h=1280, f=5120.
  const double N = 20, h = 1280, f = 5120;
  const Graph g = generate_transformer(spec_of("gpt2-large", Phase::Prefill, 2, 10, 1));
  const Node& up = g.nodes[g.find("l0.up")];
  EXPECT_EQ(up.flops, 2 * N * h * f + N * f);                       // + bias
  EXPECT_EQ(up.bytes, 2 * N * h + 2 * (h * f + f) + 2 * N * f);     // in, weight+bias, out
  EXPECT_EQ(g.nodes[g.find("l0.act")].flops, 8 * N * f);            // GELU
  EXPECT_EQ(g.nodes[g.find("l0.ln1")].flops, 8 * N * h);            // LayerNorm
  EXPECT_EQ(g.nodes[g.find("l0.add2")].bytes, 3 * 2 * N * h);       // two reads, one write
  // lm_head is tied: it reads the embedding table (the one weight with two readers).
  const int wte = g.find("embed.wte");
  ASSERT_GE(wte, 0);
  ASSERT_EQ(g.out_edges(wte).size(), 2u);
  EXPECT_EQ(g.nodes[g.edges[g.out_edges(wte)[1]].dst].name, "lm_head");
  EXPECT_EQ(g.nodes[g.find("lm_head")].flops, 2 * N * h * 50257);
}

TEST(TransformerWork, LayerGranularityKeepsTiedTableShared) {
  const Graph g = generate_transformer(spec_of("gpt2-large", Phase::Prefill, 1, 8, 2, DType::FP16,
                                               Granularity::Layer));
  const int wte = g.find("embed.wte");
  ASSERT_GE(wte, 0);
  EXPECT_EQ(g.out_edges(wte).size(), 2u);  // embed and head
  EXPECT_EQ(g.nodes[g.find("embed.w")].param_bytes, 2.0 * 1024 * 1280);  // wpe alone
}

}  // namespace
}  // namespace placesim::models
