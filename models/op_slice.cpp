// Sliced shapes per axis; the table and its reasons are in op_slice.hpp.
#include "models/op_slice.hpp"

#include <fmt/format.h>
#include <optional>

#include "sim/core/error.hpp"

namespace placesim::models {

namespace {

constexpr Axis kAxes[] = {Axis::Rows, Axis::Cols, Axis::Heads, Axis::Tokens, Axis::Batch, Axis::Experts};

// The slice of `s` along `axis`, or nullopt when the shape has no such axis.
std::optional<Slice> sliced(const GemmShape& g, Axis axis, double s) {
  GemmShape out = g;
  switch (axis) {
    case Axis::Rows: out.k *= s; out.bias *= s; return Slice{out, true, Part::Features, Part::Partial};
    case Axis::Cols: out.n *= s; return Slice{out, true, Part::Whole, Part::Features};
    case Axis::Tokens: out.m *= s; return Slice{out, false, Part::Tokens, Part::Tokens};
    case Axis::Batch: out.batch *= s; return Slice{out, false, Part::Batch, Part::Batch};
    default: return std::nullopt;
  }
}

std::optional<Slice> sliced(const AttentionShape& a, Axis axis, double s) {
  AttentionShape out = a;
  switch (axis) {
    case Axis::Heads: out.heads *= s; out.kv_heads *= s; return Slice{out, false, Part::Features, Part::Features};
    case Axis::Tokens: out.q_len *= s; return Slice{out, false, Part::Tokens, Part::Tokens};
    case Axis::Batch: out.batch *= s; return Slice{out, false, Part::Batch, Part::Batch};
    default: return std::nullopt;
  }
}

std::optional<Slice> sliced(const ElementwiseShape& e, Axis axis, double s) {
  ElementwiseShape out = e;
  switch (axis) {
    case Axis::Cols: out.elements *= s; out.weight_elements *= s; return Slice{out, true, Part::Features, Part::Features};
    case Axis::Tokens: out.elements *= s; return Slice{out, false, Part::Tokens, Part::Tokens};
    case Axis::Batch: out.elements *= s; return Slice{out, false, Part::Batch, Part::Batch};
    default: return std::nullopt;
  }
}

// A gather's slices each read their share of the rows from the whole tables.
std::optional<Slice> sliced(const GatherShape& t, Axis axis, double s) {
  GatherShape out = t;
  out.rows *= s;
  switch (axis) {
    case Axis::Tokens: return Slice{out, false, Part::Tokens, Part::Tokens};
    case Axis::Batch: return Slice{out, false, Part::Batch, Part::Batch};
    default: return std::nullopt;
  }
}

std::optional<Slice> sliced(const LstmShape& l, Axis axis, double s) {
  if (axis != Axis::Batch) return std::nullopt;
  LstmShape out = l;
  out.batch *= s;
  return Slice{out, false, Part::Batch, Part::Batch};
}

std::optional<Slice> sliced(const NoShape&, Axis, double) { return std::nullopt; }

std::optional<Slice> slice_or_none(const OpShape& s, Axis axis, double share) {
  if (axis == Axis::Replicas) return Slice{s, false, Part::Whole, Part::Whole};
  return std::visit([&](const auto& shape) { return sliced(shape, axis, share); }, s);
}

}  // namespace

const char* to_string(Axis a) {
  switch (a) {
    case Axis::Rows: return "rows";
    case Axis::Cols: return "cols";
    case Axis::Heads: return "heads";
    case Axis::Tokens: return "tokens";
    case Axis::Batch: return "batch";
    case Axis::Experts: return "experts";
    case Axis::Replicas: return "replicas";
  }
  PLACESIM_ASSERT(false, "unknown Axis value");
  return "";
}

const char* to_string(Part p) {
  switch (p) {
    case Part::Whole: return "whole";
    case Part::Features: return "features";
    case Part::Partial: return "partial sums";
    case Part::Tokens: return "tokens";
    case Part::Batch: return "batch";
    case Part::Experts: return "experts";
  }
  PLACESIM_ASSERT(false, "unknown Part value");
  return "";
}

Axis parse_axis(const std::string& s) {
  std::string known;
  for (Axis a : kAxes) {
    if (s == to_string(a)) return a;
    known += (known.empty() ? "" : ", ") + std::string(to_string(a));
  }
  if (s == to_string(Axis::Replicas)) return Axis::Replicas;
  known += std::string(", ") + to_string(Axis::Replicas);
  throw InputError(fmt::format("unknown axis '{}' (expected {})", s, known));
}

std::vector<Axis> axes_of(const OpShape& s) {
  std::vector<Axis> out;
  for (Axis a : kAxes)
    if (slice_or_none(s, a, 1)) out.push_back(a);
  return out;
}

Slice slice_shape(const OpShape& s, Axis axis, double share) {
  if (!(share > 0 && share <= 1)) throw InputError(fmt::format("a slice's share must be in (0, 1], got {}", share));
  if (auto out = slice_or_none(s, axis, share)) return *out;
  std::string known;
  for (Axis a : axes_of(s)) known += (known.empty() ? "" : ", ") + std::string(to_string(a));
  throw InputError(fmt::format("an op of shape {} has no axis '{}' ({})", kind_name(s), to_string(axis),
                               known.empty() ? "it cannot be split" : "its axes: " + known));
}

}  // namespace placesim::models
