// Slicing shapes along an axis, worked by hand: what a slice computes, what weight it carries,
// that slices add up to the op, and the errors for an axis an op does not have.
#include <gtest/gtest.h>

#include <cmath>

#include "models/op_slice.hpp"
#include "sim/core/error.hpp"

namespace placesim::models {
namespace {

std::string error_of(const OpShape& s, Axis axis, double share) {
  try {
    slice_shape(s, axis, share);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A 1280 -> 5120 linear over 128 tokens in fp16 (GPT-2 large's MLP up projection, no bias):
//   flops 2*128*1280*5120 = 1,677,721,600; weight 2*1280*5120 = 13,107,200 bytes.
const OpShape kLinear = GemmShape{.m = 128, .n = 5120, .k = 1280, .weight = GemmWeight::B};

TEST(OpSlice, ColumnHalfCarriesHalfTheWeightAndHalfTheFlops) {
  const Slice s = slice_shape(kLinear, Axis::Cols, 0.5);
  EXPECT_TRUE(s.partitions_weight);
  EXPECT_EQ(s.shape, OpShape(GemmShape{.m = 128, .n = 2560, .k = 1280, .weight = GemmWeight::B}));
  EXPECT_EQ(shape_flops(s.shape), 838'860'800.0);
  EXPECT_EQ(shape_weight_bytes(s.shape, DType::FP16), 6'553'600.0);
}

TEST(OpSlice, TokenHalfCarriesAllTheWeightAndHalfTheFlops) {
  const Slice s = slice_shape(kLinear, Axis::Tokens, 0.5);
  EXPECT_FALSE(s.partitions_weight);
  EXPECT_EQ(s.shape, OpShape(GemmShape{.m = 64, .n = 5120, .k = 1280, .weight = GemmWeight::B}));
  EXPECT_EQ(shape_flops(s.shape), 838'860'800.0);
  EXPECT_EQ(shape_weight_bytes(s.shape, DType::FP16), 13'107'200.0);
}

// A row quarter of the linear with a bias: k = 320 and a quarter of the bias add.
//   flops 2*128*320*5120 + 0.25*128*5120 = 419,430,400 + 163,840 = 419,594,240, a quarter of
//         the op's 1,677,721,600 + 655,360 = 1,678,376,960
//   weight 320*5120 + 0.25*5120 = 1,639,680 elements, a quarter of 5120*1281 = 6,558,720
TEST(OpSlice, RowSliceCarriesItsShareOfWeightAndBias) {
  GemmShape g = std::get<GemmShape>(kLinear);
  g.bias = 1;
  const Slice s = slice_shape(g, Axis::Rows, 0.25);
  EXPECT_TRUE(s.partitions_weight);
  EXPECT_EQ(std::get<GemmShape>(s.shape).k, 320);
  EXPECT_EQ(shape_flops(s.shape), 419'594'240.0);
  EXPECT_EQ(shape_flops(g), 1'678'376'960.0);
  EXPECT_EQ(shape_weight_elements(s.shape), 1'639'680.0);
  EXPECT_EQ(shape_weight_elements(g), 6'558'720.0);
}

// Uneven shares 0.3 + 0.7 (as a CPU/GPU split would be): the slices' flops add up to the op's
// on every axis, and their weight too where the axis partitions it; the whole weight otherwise.
TEST(OpSlice, SlicesAddUpToTheOp) {
  GemmShape biased = std::get<GemmShape>(kLinear);
  biased.bias = 1;
  const std::vector<OpShape> shapes = {
      biased, AttentionShape{.batch = 4, .heads = 64, .kv_heads = 8, .head_dim = 128, .q_len = 16, .kv_len = 512},
      ElementwiseShape{.elements = 163'840, .flops_per_element = 8, .weight_elements = 2560},
      LstmShape{.batch = 10, .input = 256, .hidden = 512}};
  for (const OpShape& op : shapes)
    for (Axis axis : axes_of(op)) {
      SCOPED_TRACE(std::string(kind_name(op)) + " by " + to_string(axis));
      const Slice a = slice_shape(op, axis, 0.3), b = slice_shape(op, axis, 0.7);
      EXPECT_DOUBLE_EQ(shape_flops(a.shape) + shape_flops(b.shape), shape_flops(op));
      const double w = shape_weight_elements(op);
      if (a.partitions_weight) EXPECT_DOUBLE_EQ(shape_weight_elements(a.shape) + shape_weight_elements(b.shape), w);
      else EXPECT_EQ(shape_weight_elements(a.shape), w);
    }
}

// Splitting LLaMA-2 70B's attention in half by heads keeps 32 query heads and 4 KV heads.
TEST(OpSlice, HeadsSplitQueryAndKvHeadsAlike) {
  const OpShape a = AttentionShape{.heads = 64, .kv_heads = 8, .head_dim = 128, .q_len = 1, .kv_len = 4096};
  const Slice s = slice_shape(a, Axis::Heads, 0.5);
  EXPECT_EQ(s.shape, OpShape(AttentionShape{.heads = 32, .kv_heads = 4, .head_dim = 128, .q_len = 1, .kv_len = 4096}));
  EXPECT_FALSE(s.partitions_weight);
  // The whole share gives the op back.
  EXPECT_EQ(slice_shape(a, Axis::Batch, 1).shape, a);
}

TEST(OpSlice, AxesOfEachKind) {
  using V = std::vector<Axis>;
  EXPECT_EQ(axes_of(kLinear), (V{Axis::Rows, Axis::Cols, Axis::Tokens, Axis::Batch}));
  EXPECT_EQ(axes_of(AttentionShape{}), (V{Axis::Heads, Axis::Tokens, Axis::Batch}));
  EXPECT_EQ(axes_of(ElementwiseShape{}), (V{Axis::Cols, Axis::Tokens, Axis::Batch}));
  EXPECT_EQ(axes_of(LstmShape{}), (V{Axis::Batch}));
  EXPECT_EQ(axes_of(NoShape{}), V{});
}

TEST(OpSlice, Errors) {
  EXPECT_EQ(error_of(AttentionShape{}, Axis::Cols, 0.5),
            "an op of shape attention has no axis 'cols' (its axes: heads, tokens, batch)");
  EXPECT_EQ(error_of(kLinear, Axis::Experts, 0.5),
            "an op of shape gemm has no axis 'experts' (its axes: rows, cols, tokens, batch)");
  EXPECT_EQ(error_of(NoShape{}, Axis::Tokens, 0.5), "an op of shape none has no axis 'tokens' (it cannot be split)");
  EXPECT_EQ(error_of(kLinear, Axis::Cols, 0), "a slice's share must be in (0, 1], got 0");
  EXPECT_EQ(error_of(kLinear, Axis::Cols, 1.5), "a slice's share must be in (0, 1], got 1.5");
  EXPECT_EQ(error_of(kLinear, Axis::Cols, std::nan("")), "a slice's share must be in (0, 1], got nan");
  EXPECT_EQ(parse_axis("heads"), Axis::Heads);
  try {
    parse_axis("depth");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown axis 'depth' (expected rows, cols, heads, tokens, batch, experts, replicas)");
  }
}

}  // namespace
}  // namespace placesim::models
