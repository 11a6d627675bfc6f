// Slicing an op along one named axis of its shape (op_shape.hpp): the shape one slice of share
// s in (0, 1] computes, and whether the axis partitions the op's weight.
//
//   axis     gemm             attention                     elementwise        lstm    weight
//   rows     k -> k*s, bias*s                                                           share s
//   cols     n -> n*s                                       elements, weight*s          share s
//   heads                     heads, kv_heads -> *s                                     -
//   tokens   m -> m*s         q_len -> q_len*s              elements -> *s              whole
//   batch    batch -> *s      batch -> *s                   elements -> *s     batch   whole
//   experts  (no shape has it: the transformer generator makes each expert its own ops,
//            l<i>.expert<e>.*, so a plan places experts by placing those; models/ffn_blocks.hpp)
//   replicas every shape, and an op with none: each slice computes the whole op (share 1)
//
// A column slice computes its share of the outputs from the whole input and its columns of the
// weight (and of the bias); a row slice computes partial sums of all outputs from its share of
// the input features and rows of the weight, which a reduce adds up; it also adds its share s
// of the bias, so that the slices' work sums to the op's (a kernel adds the whole bias once,
// after the reduce). A token or batch slice reads the whole weight. A heads slice of attention
// keeps s of the query and of the key/value heads (GQA groups stay whole when s is a multiple of
// 1/kv_heads). An elementwise cols slice keeps s of each row's elements and of its weight
// vector; a norm's statistics span the whole row, so its column slices need them joined. An
// elementwise op's elements run over batch x tokens x features, so a tokens or a batch slice
// keeps s of them: the batch axis lets a data-parallel replica's norms and adds take the
// sequences its linears and attention take.
// For every axis but replicas, the slices' flops (and weight bytes, on a partitioning axis) sum
// to the op's. Replicas are copies of the op, each doing all of its work on its own device, as
// Megatron runs a block's norms and residual adds on every GPU of a tensor-parallel group.
//
// What a slice reads of its activation inputs and what its output is a part of decide how split
// ops connect (scheduler/plan/slices.hpp):
//
//   axis     shape        reads of its inputs     its output is
//   rows     gemm         features (its share)    partial sums of the whole output
//   cols     gemm         the whole input         features (its columns)
//   cols     elementwise  features                features
//   heads    attention    features (its heads)    features (its heads' context)
//   tokens   any          tokens                  tokens
//   batch    any          batch                   batch
//   replicas any          the whole input         the whole output
//
// A consumer whose slices read exactly the part its producer's slices make (same devices and
// shares, e.g. a column-split linear into a row-split one, Megatron's MLP) takes it where it
// lies; any other consumer needs the parts joined (a reduce for partial sums, a gather or a
// concatenation for the others). A batched matmul with no weight (Q K^T) split by cols reads the
// whole of both inputs here, which overstates the second input's bytes by its unsplit share.
#pragma once

#include <string>
#include <vector>

#include "models/op_shape.hpp"

namespace placesim::models {

enum class Axis { Rows, Cols, Heads, Tokens, Batch, Experts, Replicas };

const char* to_string(Axis a);           // "rows", "cols", ...
Axis parse_axis(const std::string& s);   // InputError (no location) listing the axes when unknown
std::vector<Axis> axes_of(const OpShape& s);  // its shape's axes, in the order of the Axis enum (not replicas)

enum class Part { Whole, Features, Partial, Tokens, Batch, Experts };
const char* to_string(Part p);  // "whole", "features", "partial sums", ...

struct Slice {
  OpShape shape;           // what the slice computes
  bool partitions_weight;  // true: the slice reads share s of the weight; false: all of it
  Part input;              // the part of each activation input it reads (Whole: all of it)
  Part output;             // what its output is a part of
};

// InputError (no location) when s is not in (0, 1] or the shape has no such axis (naming the
// axes it has).
Slice slice_shape(const OpShape& s, Axis axis, double share);

}  // namespace placesim::models
