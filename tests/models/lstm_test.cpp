// The unfolded LSTM: parameter count, flops and structure worked out by hand, and its spec.
#include <gtest/gtest.h>

#include "models/generators/lstm.hpp"
#include "tests/models/sums.hpp"

namespace placesim::models {
namespace {

LstmSpec small() {
  LstmSpec s;
  s.layers = 2;
  s.seq = 3;
  s.batch = 4;
  s.io = 10;
  s.hidden = 20;
  return s;
}

// PyTorch's nn.LSTM(10, 20, num_layers=2) has weight_ih_l0 80x10, weight_hh_l0 80x20, two
// biases of 80 (2560), then 80x20, 80x20 and 160 (3360): 5920 parameters, 23680 bytes in fp32.
TEST(Lstm, ParametersMatchPyTorchsCount) {
  const Graph g = generate_lstm(small());
  EXPECT_EQ(test::totals(g).params, 2);
  EXPECT_EQ(g.nodes[g.find("l0.w")].param_bytes, 4.0 * 2560);
  EXPECT_EQ(g.nodes[g.find("l1.w")].param_bytes, 4.0 * 3360);
  EXPECT_EQ(test::totals(g).param_bytes, 23680);
}

// Cell flops 8BH(I+H) + 21BH with B = 4, H = 20: layer 0 (I = 10) 19200 + 1680 = 20880,
// layer 1 (I = 20) 25600 + 1680 = 27280; three steps each: 144480.
TEST(Lstm, FlopsByHand) {
  const Graph g = generate_lstm(small());
  EXPECT_EQ(g.nodes[g.find("l0.t2")].flops, 20880);
  EXPECT_EQ(g.nodes[g.find("l1.t0")].flops, 27280);
  EXPECT_EQ(test::totals(g).flops, 144480);
  EXPECT_EQ(test::totals(g).ops, 6);
  // l0.t0 reads its weights (2560 floats), x (4x10), h and c (2 x 4x20), writes h', c'.
  EXPECT_EQ(g.nodes[g.find("l0.t0")].bytes, 4.0 * (2560 + 40 + 160) + 4.0 * 160);
}

// Cell (1, 1) reads the layer's weights, (0, 1)'s h and (1, 0)'s h and c; a weight node is read
// by every step of its layer. Edges: 6 weight reads, 4 along time, 3 between layers.
TEST(Lstm, CellsAreWiredInTimeAndDepth) {
  const Graph g = generate_lstm(small());
  EXPECT_EQ(g.edges.size(), 13u);
  std::map<std::string, double> in;
  for (int e : g.in_edges(g.find("l1.t1"))) in[g.nodes[g.edges[e].src].name] = g.edges[e].bytes;
  EXPECT_EQ(in, (std::map<std::string, double>{{"l0.t1", 4.0 * 80}, {"l1.t0", 4.0 * 160}, {"l1.w", 4.0 * 3360}}));
  EXPECT_EQ(g.out_edges(g.find("l0.w")).size(), 3u);
  EXPECT_EQ(g.nodes[g.find("l0.t0")].type, "lstm_cell");
  EXPECT_EQ(g.name, "lstm-2l-s3-b4-io10-h20-fp32");
}

TEST(Lstm, HalfPrecisionAndWeightOnlyQuantisation) {
  LstmSpec s = small();
  s.dtype = DType::INT8;  // weights 1 byte, activations fp16
  const Graph g = generate_lstm(s);
  EXPECT_EQ(g.nodes[g.find("l0.w")].param_bytes, 2560);
  EXPECT_EQ(g.nodes[g.find("l0.t0")].output_bytes, 2.0 * 160);
}

std::string error_of(const std::string& text) {
  try {
    parse_lstm_spec(Yaml::load_string(text, "m.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Lstm, SpecFromYaml) {
  const LstmSpec s =
      parse_lstm_spec(Yaml::load_string("{generator: lstm, layers: 8, seq: 16, batch: 2, io: 512, dtype: fp16}", "m"));
  EXPECT_EQ(s.layers, 8);
  EXPECT_EQ(s.seq, 16);
  EXPECT_EQ(s.batch, 2);
  EXPECT_EQ(s.io, 512);
  EXPECT_EQ(s.hidden, 0);
  EXPECT_EQ(s.dtype, DType::FP16);
  EXPECT_EQ(generate_lstm(s).name, "lstm-8l-s16-b2-io512-h512-fp16");
  EXPECT_EQ(error_of("layers: 2\nseq: 0"), "m.yaml:2:6: expected a positive integer, got '0'");
  EXPECT_EQ(error_of("layers: 2\nsteps: 4"),
            "m.yaml:2:1: unknown key 'steps' (expected one of: generator, layers, seq, batch, io, hidden, dtype)");
  EXPECT_EQ(error_of("dtype: fp8"), "m.yaml:1:8: unknown dtype 'fp8' (expected fp32, fp16, bf16, int8 or int4)");
  EXPECT_EQ(error_of("generator: transformer"), "m.yaml:1:12: expected generator 'lstm', got 'transformer'");
}

}  // namespace
}  // namespace placesim::models
