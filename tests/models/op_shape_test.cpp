// Op shapes: each kind's flops, bytes and weight worked by hand, and conservation: every op the
// transformer and LSTM generators make carries a shape whose work is the work they store.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "models/generators/lstm.hpp"
#include "models/generators/transformer.hpp"
#include "models/op_shape.hpp"

namespace placesim::models {
namespace {

// GPT-2 large's qkv projection, prefill of 128 tokens, fp16: [128,1280] x [1280,3840] + bias.
//   flops   2*128*1280*3840 + 128*3840 = 1,258,291,200 + 491,520 = 1,258,782,720
//   weight  1280*3840 + 3840 = 4,919,040 elements = 9,838,080 bytes
//   bytes   2*128*1280 (in) + 9,838,080 + 2*128*3840 (out) = 327,680 + 9,838,080 + 983,040
TEST(OpShape, GemmByHand) {
  const OpShape s = GemmShape{.m = 128, .n = 3840, .k = 1280, .weight = GemmWeight::B, .bias = 1};
  EXPECT_STREQ(kind_name(s), "gemm");
  EXPECT_EQ(shape_flops(s), 1'258'782'720.0);
  EXPECT_EQ(shape_weight_elements(s), 4'919'040.0);
  EXPECT_EQ(shape_weight_bytes(s, DType::FP16), 9'838'080.0);
  EXPECT_EQ(shape_bytes(s, DType::FP16), 11'148'800.0);
}

// int4 weights with fp16 activations: one token through a 4096 x 4096 linear, no bias:
//   bytes 2*4096 + 0.5*4096*4096 + 2*4096 = 8,192 + 8,388,608 + 8,192 = 8,404,992.
// The same product of two activations (weight none, batch 2: [2,1,4096] x [2,4096,4096]) reads
// B as fp16 activations: 2*2*4096 + 2*2*16,777,216 + 2*2*4096 = 67,141,632; no weight.
TEST(OpShape, GemmWeightIsInTheModelDtypeActivationsAreNot) {
  const OpShape w = GemmShape{.m = 1, .n = 4096, .k = 4096, .weight = GemmWeight::B};
  EXPECT_EQ(shape_bytes(w, DType::INT4), 8'404'992.0);
  EXPECT_EQ(shape_weight_bytes(w, DType::INT4), 8'388'608.0);
  const OpShape a = GemmShape{.batch = 2, .m = 1, .n = 4096, .k = 4096};
  EXPECT_EQ(shape_bytes(a, DType::INT4), 67'141'632.0);
  EXPECT_EQ(shape_weight_bytes(a, DType::INT4), 0);
  EXPECT_EQ(shape_flops(a), 2 * shape_flops(w));
}

// LLaMA-2 70B decode attention, one sequence, 4096 cached positions, 64 heads (8 KV) of 128:
//   flops  4*1*1*4096*8192 + 5*1*64*1*4096 = 134,217,728 + 1,310,720 = 135,528,448
//   bytes  2*(8192 + 2*4096*1024 + 8192) = 2*8,404,992 = 16,809,984 (fp16)
TEST(OpShape, AttentionByHand) {
  const OpShape s = AttentionShape{.heads = 64, .kv_heads = 8, .head_dim = 128, .q_len = 1, .kv_len = 4096};
  EXPECT_EQ(shape_flops(s), 135'528'448.0);
  EXPECT_EQ(shape_bytes(s, DType::FP16), 16'809'984.0);
  EXPECT_EQ(shape_weight_elements(s), 0);
}

// GPT-2 large's LayerNorm over 128 tokens: 163,840 elements at 8 flops, scale and shift 2*1280:
//   flops 1,310,720; bytes 2*163,840 + 2*2560 + 2*163,840 = 660,480 (fp16).
// A residual add reads two inputs: bytes 3*2*163,840 = 983,040, flops 163,840.
TEST(OpShape, ElementwiseByHand) {
  const OpShape ln = ElementwiseShape{.elements = 163'840, .flops_per_element = 8, .weight_elements = 2560};
  EXPECT_EQ(shape_flops(ln), 1'310'720.0);
  EXPECT_EQ(shape_bytes(ln, DType::FP16), 660'480.0);
  EXPECT_EQ(shape_weight_bytes(ln, DType::FP16), 5120.0);
  const OpShape add = ElementwiseShape{.elements = 163'840, .inputs = 2};
  EXPECT_EQ(shape_flops(add), 163'840.0);
  EXPECT_EQ(shape_bytes(add, DType::FP16), 983'040.0);
}

// LSTM cell, B = 1, I = H = 256, fp32:
//   flops  8*256*512 + 21*256 = 1,048,576 + 5,376 = 1,053,952
//   weight 4*256*512 + 8*256 = 526,336 elements
//   bytes  4*526,336 + 4*(256 + 512) + 4*512 = 2,105,344 + 3,072 + 2,048 = 2,110,464
TEST(OpShape, LstmByHand) {
  const OpShape s = LstmShape{.input = 256, .hidden = 256};
  EXPECT_EQ(shape_flops(s), 1'053'952.0);
  EXPECT_EQ(shape_weight_elements(s), 526'336.0);
  EXPECT_EQ(shape_bytes(s, DType::FP32), 2'110'464.0);
}

TEST(OpShape, NoShape) {
  EXPECT_FALSE(has_shape(OpShape{}));
  EXPECT_STREQ(kind_name(OpShape{}), "none");
  EXPECT_TRUE(has_shape(OpShape{LstmShape{.input = 1, .hidden = 1}}));
}

// The weight bytes an op reads: the sum of its parameters' sizes.
double param_bytes_read(const Graph& g, int v) {
  double b = 0;
  for (int e : g.in_edges(v))
    if (g.nodes[g.edges[e].src].kind == NodeKind::Param) b += g.nodes[g.edges[e].src].param_bytes;
  return b;
}

// The block (layer-granularity node) an op of an op-granularity graph belongs to.
std::string block_of(const Node& n) {
  if (n.layer >= 0) return fmt::format("l{}", n.layer);
  return n.name == "embed" ? "embed" : "head";
}

struct Work {
  double flops = 0, bytes = 0, weight_bytes = 0;
};

// Every built-in arch, both phases, three dtypes (w = a, and int4's w != a): each op's shape
// gives back its stored flops, bytes and parameter bytes; the embedding alone has no shape.
// At layer granularity, each block's node holds the sum of its ops' shapes' work (the
// embedding's stored work for the embedding) and of its idle experts' weights, and has no shape
// itself.
TEST(OpShape, TransformerShapesConserveTheStoredWork) {
  for (const TransformerArch& arch : transformer_archs())
    for (Phase phase : {Phase::Prefill, Phase::Decode})
      for (DType dtype : {DType::FP16, DType::INT4, DType::FP32}) {
        TransformerSpec spec;
        spec.arch = arch.name;
        spec.batch = 3;
        spec.seq = 96;
        spec.phase = phase;
        spec.dtype = dtype;
        const Graph g = generate_transformer(spec);
        SCOPED_TRACE(g.name);
        std::map<std::string, Work> blocks;
        for (int v : g.ops()) {
          const Node& n = g.nodes[v];
          SCOPED_TRACE(n.name);
          Work& b = blocks[block_of(n)];
          ASSERT_TRUE(has_shape(n.shape));
          EXPECT_EQ(shape_flops(n.shape), n.flops);
          EXPECT_EQ(shape_bytes(n.shape, dtype), n.bytes);
          EXPECT_EQ(shape_weight_bytes(n.shape, dtype), param_bytes_read(g, v));
          b.flops += shape_flops(n.shape);
          b.bytes += shape_bytes(n.shape, dtype);
          b.weight_bytes += shape_weight_bytes(n.shape, dtype);
        }
        // An idle expert's weights (a Param no op reads) are its layer's block's too.
        for (int p : g.params())
          if (g.out_edges(p).empty()) blocks[block_of(g.nodes[p])].weight_bytes += g.nodes[p].param_bytes;
        spec.granularity = Granularity::Layer;
        const Graph lg = generate_transformer(spec);
        ASSERT_EQ(lg.ops().size(), blocks.size());
        for (int v : lg.ops()) {
          const Node& n = lg.nodes[v];
          SCOPED_TRACE(n.name);
          EXPECT_FALSE(has_shape(n.shape));
          const Work& b = blocks.at(n.name);
          EXPECT_EQ(n.flops, b.flops);
          EXPECT_EQ(n.bytes, b.bytes);
          EXPECT_EQ(param_bytes_read(lg, v), b.weight_bytes);
        }
      }
}

// The generator's shapes by hand, one LLaMA-2 70B layer (B = 2, S = 256 prefill): qkv is a
// gemm of batch 2, m 256, k 8192, n 8192 + 2*1024 with its weight; attention keeps 8 KV heads.
TEST(OpShape, TransformerShapesByHand) {
  TransformerSpec spec;
  spec.arch = "llama2-70b";
  spec.batch = 2;
  spec.seq = 256;
  spec.layers = 1;
  const Graph g = generate_transformer(spec);
  EXPECT_EQ(g.nodes[g.find("l0.qkv")].shape,
            OpShape(GemmShape{.batch = 2, .m = 256, .n = 10240, .k = 8192, .weight = GemmWeight::B}));
  EXPECT_EQ(g.nodes[g.find("l0.attn")].shape,
            OpShape(AttentionShape{.batch = 2, .heads = 64, .kv_heads = 8, .head_dim = 128, .q_len = 256, .kv_len = 256}));
  // SwiGLU: 2*256 tokens x 28672, two inputs, 5 flops each; RMSNorm: 4 flops, a scale of 8192.
  EXPECT_EQ(g.nodes[g.find("l0.act")].shape,
            OpShape(ElementwiseShape{.elements = 512.0 * 28672, .flops_per_element = 5, .inputs = 2}));
  EXPECT_EQ(g.nodes[g.find("l0.ln1")].shape,
            OpShape(ElementwiseShape{.elements = 512.0 * 8192, .flops_per_element = 4, .weight_elements = 8192}));
  spec.phase = Phase::Decode;  // one new token per sequence against 256 cached
  const Graph d = generate_transformer(spec);
  EXPECT_EQ(d.nodes[d.find("lm_head")].shape,
            OpShape(GemmShape{.batch = 2, .m = 1, .n = 32000, .k = 8192, .weight = GemmWeight::B}));
  EXPECT_EQ(d.nodes[d.find("l0.attn")].shape,
            OpShape(AttentionShape{.batch = 2, .heads = 64, .kv_heads = 8, .head_dim = 128, .q_len = 1, .kv_len = 256}));
}

// LSTM cells: their shape is the cell's (B, I, H) and gives back the stored work, in fp32 and
// in int8 (weights 1 byte, activations fp16).
TEST(OpShape, LstmShapesConserveTheStoredWork) {
  for (DType dtype : {DType::FP32, DType::INT8}) {
    LstmSpec spec;
    spec.layers = 2;
    spec.seq = 3;
    spec.batch = 4;
    spec.io = 10;
    spec.hidden = 20;
    spec.dtype = dtype;
    const Graph g = generate_lstm(spec);
    EXPECT_EQ(g.nodes[g.find("l1.t2")].shape, OpShape(LstmShape{.batch = 4, .input = 20, .hidden = 20}));
    for (int v : g.ops()) {
      const Node& n = g.nodes[v];
      SCOPED_TRACE(n.name);
      EXPECT_EQ(shape_flops(n.shape), n.flops);
      EXPECT_EQ(shape_bytes(n.shape, dtype), n.bytes);
      EXPECT_EQ(shape_weight_bytes(n.shape, dtype), param_bytes_read(g, v));
    }
  }
}

}  // namespace
}  // namespace placesim::models
