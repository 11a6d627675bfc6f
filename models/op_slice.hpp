// Slicing an op along one named axis of its shape (op_shape.hpp): the shape one slice of share
// s in (0, 1] computes, and whether the axis partitions the op's weight.
//
//   axis     gemm             attention                     elementwise        lstm    weight
//   rows     k -> k*s, bias*s                                                           share s
//   cols     n -> n*s                                       elements, weight*s          share s
//   heads                     heads, kv_heads -> *s                                     -
//   tokens   m -> m*s         q_len -> q_len*s              elements -> *s              whole
//   batch    batch -> *s      batch -> *s                                       batch   whole
//   experts  (no shape has it yet: MoE experts come with the MoE generator)
//
// A column slice computes its share of the outputs from the whole input and its columns of the
// weight (and of the bias); a row slice computes partial sums of all outputs from its share of
// the input features and rows of the weight, which a reduce adds up; it also adds its share s
// of the bias, so that the slices' work sums to the op's (a kernel adds the whole bias once,
// after the reduce). A token or batch slice reads the whole weight. A heads slice of attention
// keeps s of the query and of the key/value heads (GQA groups stay whole when s is a multiple of
// 1/kv_heads). An elementwise cols slice keeps s of each row's elements and of its weight
// vector; a norm's statistics span the whole row, so its column slices need them joined.
// For every axis, the slices' flops (and weight bytes, on a partitioning axis) sum to the op's.
#pragma once

#include <string>
#include <vector>

#include "models/op_shape.hpp"

namespace placesim::models {

enum class Axis { Rows, Cols, Heads, Tokens, Batch, Experts };

const char* to_string(Axis a);           // "rows", "cols", ...
Axis parse_axis(const std::string& s);   // InputError (no location) listing the axes when unknown
std::vector<Axis> axes_of(const OpShape& s);  // in the order of the Axis enum; none for NoShape

struct Slice {
  OpShape shape;           // what the slice computes
  bool partitions_weight;  // true: the slice reads share s of the weight; false: all of it
};

// InputError (no location) when s is not in (0, 1] or the shape has no such axis (naming the
// axes it has).
Slice slice_shape(const OpShape& s, Axis axis, double share);

}  // namespace placesim::models
