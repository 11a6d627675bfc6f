// ONNX import: the committed models of scripts/make_test_onnx.py, their flops against closed
// forms worked out here from the shapes in that script, and the bad-input cases.
#include <gtest/gtest.h>

#ifdef PLACESIM_WITH_ONNX

#include "models/generators/lstm.hpp"
#include "models/onnx/onnx_import.hpp"
#include "models/transform/dominators.hpp"
#include "tests/models/sums.hpp"

namespace placesim::models {
namespace {

std::string data(const std::string& name) { return std::string(PLACESIM_SOURCE_DIR) + "/tests/models/data/" + name; }

const Node& node(const Graph& g, const std::string& name) {
  const int v = g.find(name);
  EXPECT_GE(v, 0) << name;
  return g.nodes.at(v);
}

// The message of the InputError importing `file` throws ("" when none).
std::string error_of(const std::string& file, const std::map<std::string, std::int64_t>& dims = {}) {
  try {
    import_onnx(data(file), dims);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// MLP, batch B = 4: x[4,64] -> Gemm(W1[64,128], b1[128]) -> Relu -> MatMul(W2[128,10]) -> Add(b2[10]).
//   fc1   2*B*64*128 + B*128 (bias) = 65536 + 512 = 66048
//   relu  B*128 = 512;  fc2  2*B*128*10 = 10240;  bias2  B*10 = 40        total 76840
TEST(OnnxImport, MlpFlopsEqualTheClosedForm) {
  const Graph g = import_onnx(data("mlp.onnx")).graph;
  const double B = 4;
  EXPECT_EQ(node(g, "fc1").flops, 2 * B * 64 * 128 + B * 128);
  EXPECT_EQ(node(g, "fc2").flops, 2 * B * 128 * 10);
  EXPECT_EQ(test::totals(g).flops, 76840);
  EXPECT_EQ(node(g, "fc1").type, "matmul");
  EXPECT_EQ(node(g, "relu").type, "relu");
  // fc1 reads x (4*64 floats), W1 and b1, writes 4*128 floats.
  EXPECT_EQ(node(g, "fc1").bytes, 4.0 * (4 * 64 + 64 * 128 + 128) + 4.0 * 4 * 128);
  EXPECT_EQ(node(g, "fc1").output_bytes, 4.0 * 4 * 128);
  // Four initializers become parameters: (8192 + 128 + 1280 + 10) floats.
  EXPECT_EQ(test::totals(g).params, 4);
  EXPECT_EQ(test::totals(g).param_bytes, 4.0 * 9610);
  EXPECT_EQ(node(g, "W1").kind, NodeKind::Param);
  // Edges: W1, b1 -> fc1; fc1 -> relu; relu, W2 -> fc2; fc2, b2 -> bias2.
  ASSERT_EQ(g.edges.size(), 7u);
  const int relu = g.find("relu");
  ASSERT_EQ(g.in_edges(relu).size(), 1u);
  EXPECT_EQ(g.edges[g.in_edges(relu)[0]].src, g.find("fc1"));
  EXPECT_EQ(g.edges[g.in_edges(relu)[0]].bytes, 4.0 * 4 * 128);
  EXPECT_EQ(g.dtype, DType::FP32);
}

// Pre-LN transformer block, S = 16 tokens, d = 32, 4 heads of 8, FFN f = 128:
//   2 LayerNorms          2 * 8 S d                = 8192
//   Q, K, V projections   3 * 2 S d d + 3 S d      = 98304 + 1536
//   scores Q K^T          2 S S d (4 heads of 2 S S 8) = 16384,  scale  4 S S = 1024
//   softmax               5 * 4 S S                = 5120
//   context P V           2 S S d                  = 16384
//   output projection     2 S d d + S d            = 32768 + 512,  residual  S d = 512
//   FFN                   2 S d f + S f + S f (relu) + 2 S f d + S d = 131072 + 2048 + 2048 + 131072 + 512
//   residual              S d                      = 512
//   total                                          = 448000
TEST(OnnxImport, TransformerBlockFlopsEqualTheClosedForm) {
  const OnnxImport imp = import_onnx(data("transformer_block.onnx"));
  const double S = 16, d = 32, f = 128, heads = 4;
  const double closed = 2 * 8 * S * d + 3 * 2 * S * d * d + 3 * S * d + 2 * S * S * d + heads * S * S +
                        5 * heads * S * S + 2 * S * S * d + 2 * S * d * d + S * d + S * d + 2 * S * d * f + S * f +
                        S * f + 2 * S * f * d + S * d + S * d;
  EXPECT_EQ(closed, 448000);
  EXPECT_EQ(test::totals(imp.graph).flops, closed);
  EXPECT_EQ(node(imp.graph, "scores").flops, 2 * S * S * d);
  EXPECT_EQ(node(imp.graph, "q_split").flops, 0);
  EXPECT_EQ(node(imp.graph, "ln1").type, "layernorm");
  EXPECT_TRUE(imp.unsupported.empty());
  EXPECT_EQ(test::totals(imp.graph).ops, 29);
}

// ONNX LSTM, T = 5, B = 2, I = 16, H = 32: T * (8 B H (I + H) + 21 B H) = 5 * (24576 + 1344);
// the same as the unfolded generator's one-layer, five-step LSTM.
TEST(OnnxImport, LstmMatchesTheGenerator) {
  const Graph g = import_onnx(data("lstm.onnx")).graph;
  EXPECT_EQ(node(g, "lstm").flops, 5 * (8.0 * 2 * 32 * 48 + 21.0 * 2 * 32));
  EXPECT_EQ(node(g, "lstm").type, "lstm");
  LstmSpec s;
  s.layers = 1;
  s.seq = 5;
  s.batch = 2;
  s.io = 16;
  s.hidden = 32;
  const Graph unfolded = generate_lstm(s);
  EXPECT_EQ(test::totals(g).flops, test::totals(unfolded).flops);
  EXPECT_EQ(test::totals(g).param_bytes, test::totals(unfolded).param_bytes);  // W, R, B = 6400 floats
}

// MatMul and Gemm carry gemm shapes whose flops are theirs; other ops have none.
//   mlp fc1     Gemm x[4,64] x W1[64,128] + b1: m 4, k 64, n 128, weight B, bias
//   mlp fc2     MatMul [4,128] x W2[128,10]: m 4, k 128, n 10, weight B
//   block q     MatMul ln1[1,16,32] x Wq[32,32]: batch 1, m 16, k 32, n 32, weight B
//   block scores  MatMul q[1,4,16,8] x k^T[1,4,8,16]: batch 4 heads, m 16, k 8, n 16, no weight
TEST(OnnxImport, MatrixProductsCarryGemmShapes) {
  const Graph mlp = import_onnx(data("mlp.onnx")).graph;
  EXPECT_EQ(node(mlp, "fc1").shape, OpShape(GemmShape{.m = 4, .n = 128, .k = 64, .weight = GemmWeight::B, .bias = 1}));
  EXPECT_EQ(node(mlp, "fc2").shape, OpShape(GemmShape{.m = 4, .n = 10, .k = 128, .weight = GemmWeight::B}));
  EXPECT_FALSE(has_shape(node(mlp, "relu").shape));
  const Graph block = import_onnx(data("transformer_block.onnx")).graph;
  EXPECT_EQ(node(block, "q").shape, OpShape(GemmShape{.m = 16, .n = 32, .k = 32, .weight = GemmWeight::B}));
  EXPECT_EQ(node(block, "scores").shape, OpShape(GemmShape{.batch = 4, .m = 16, .n = 16, .k = 8}));
  for (const Graph* g : {&mlp, &block})
    for (int v : g->ops()) {
      const Node& n = g->nodes[v];
      SCOPED_TRACE(n.name);
      EXPECT_EQ(has_shape(n.shape), n.type == "matmul");
      if (has_shape(n.shape)) {
        EXPECT_EQ(shape_flops(n.shape), n.flops);
      }
    }
}

// r0 -> {c3 (3x3 conv) -> r3, c1 (1x1 conv)} -> add -> out, on x[1,8,16,16]: N = 2048 outputs.
//   c3  2 N * 8 * 9 + N (bias) = 296960;  c1  2 N * 8 = 32768 (no bias)
// Every path passes add; r0 is the graph's input op, so add is the one partition point.
TEST(OnnxImport, BranchingBlock) {
  const Graph g = import_onnx(data("branch.onnx")).graph;
  EXPECT_EQ(node(g, "c3").flops, 2 * 2048.0 * 8 * 9 + 2048);
  EXPECT_EQ(node(g, "c1").flops, 2 * 2048.0 * 8);
  EXPECT_EQ(test::totals(g).ops, 6);
  EXPECT_EQ(test::totals(g).params, 3);
  EXPECT_EQ(g.out_edges(g.find("r0")).size(), 2u);
  EXPECT_EQ(partition_points(g), std::vector<int>{g.find("add")});
}

TEST(OnnxImport, DynamicDimensionsTakeGivenValues) {
  EXPECT_EQ(error_of("mlp_dynamic.onnx"),
            data("mlp_dynamic.onnx") + ": graph input 'x' has dynamic dimension 'batch': give its value with "
                                       "--dim batch=VALUE");
  EXPECT_EQ(test::totals(import_onnx(data("mlp_dynamic.onnx"), {{"batch", 4}}).graph).flops, 76840);
  // Batch 2: 2*2*64*128 + 256 + 256 + 2*2*128*10 + 20.
  EXPECT_EQ(test::totals(import_onnx(data("mlp_dynamic.onnx"), {{"batch", 2}}).graph).flops, 38420);
  EXPECT_EQ(error_of("mlp_dynamic.onnx", {{"batch", 2}, {"seq", 8}}),
            data("mlp_dynamic.onnx") + ": --dim seq=8: the model has no dimension named 'seq' (its named "
                                       "dimensions: batch)");
}

TEST(OnnxImport, UnsupportedOpsAreCostedByBytesAndCounted) {
  const OnnxImport imp = import_onnx(data("unsupported.onnx"));
  EXPECT_EQ(imp.unsupported, (std::map<std::string, int>{{"CumSum", 2}}));
  const Node& cs = node(imp.graph, "cs1");
  EXPECT_EQ(cs.flops, 0);
  EXPECT_EQ(cs.bytes, 4.0 * 32 + 8 + 4.0 * 32);  // x, the int64 axis, the output
  EXPECT_EQ(test::totals(imp.graph).ops, 3);
}

TEST(OnnxImport, BadInputNamesTheProblem) {
  EXPECT_EQ(error_of("not_a_model.onnx"),
            data("not_a_model.onnx") + ": not an ONNX model (expected a serialized onnx.ModelProto with a graph)");
  EXPECT_EQ(error_of("no_shape.onnx"),
            data("no_shape.onnx") + ": node 'mystery' (com.example.Mystery): output 'm' has no static shape after "
                                    "ONNX shape inference (an op ONNX cannot infer, or a shape only known at run time)");
  EXPECT_EQ(error_of("missing.onnx"), data("missing.onnx") + ": cannot read the ONNX file");
}

}  // namespace
}  // namespace placesim::models

#else

TEST(OnnxImport, SkippedWithoutOnnx) { GTEST_SKIP() << "placesim was built without ONNX (PLACESIM_WITH_ONNX=OFF)"; }

#endif
