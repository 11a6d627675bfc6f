// Work from shapes; the formulas (and why they are what they are) are in op_shape.hpp. Each is
// written in the order the generators multiply, so stored and derived values agree bit for bit.
#include "models/op_shape.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace placesim::models {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
// C++20 deduces this itself; clang before 17 (the fuzz build's clang-14) needs the guide.
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

double no_shape(const char* what) {
  PLACESIM_ASSERT(false, std::string(what) + " of an op without a shape");
  return 0;
}

}  // namespace

const char* kind_name(const OpShape& s) {
  return std::visit(Overloaded{[](const NoShape&) { return "none"; }, [](const GemmShape&) { return "gemm"; },
                               [](const AttentionShape&) { return "attention"; },
                               [](const ElementwiseShape&) { return "elementwise"; },
                               [](const GatherShape&) { return "gather"; }, [](const LstmShape&) { return "lstm"; }},
                    s);
}

bool has_shape(const OpShape& s) { return !std::holds_alternative<NoShape>(s); }

double shape_flops(const OpShape& s) {
  return std::visit(
      Overloaded{[](const NoShape&) { return no_shape("flops"); },
                 [](const GemmShape& g) {
                   const double rows = g.batch * g.m;
                   return 2 * rows * g.k * g.n + g.bias * rows * g.n;
                 },
                 [](const AttentionShape& a) {
                   const double h = a.heads * a.head_dim;
                   return 4 * a.batch * a.q_len * a.kv_len * h + 5 * a.batch * a.heads * a.q_len * a.kv_len;
                 },
                 [](const ElementwiseShape& e) { return e.flops_per_element * e.elements; },
                 [](const GatherShape& t) { return (t.tables - 1) * t.rows * t.width; },
                 [](const LstmShape& l) { return 8 * l.batch * l.hidden * (l.input + l.hidden) + 21 * l.batch * l.hidden; }},
      s);
}

double shape_weight_elements(const OpShape& s) {
  return std::visit(Overloaded{[](const NoShape&) { return no_shape("weight"); },
                               [](const GemmShape& g) { return g.weight == GemmWeight::B ? g.k * g.n + g.bias * g.n : 0.0; },
                               [](const AttentionShape&) { return 0.0; },
                               [](const ElementwiseShape& e) { return e.weight_elements; },
                               [](const GatherShape& t) { return t.table_rows * t.width; },
                               [](const LstmShape& l) { return 4 * l.hidden * (l.input + l.hidden) + 8 * l.hidden; }},
                    s);
}

double shape_weight_bytes(const OpShape& s, DType model) { return bytes_per_element(model) * shape_weight_elements(s); }

double shape_bytes(const OpShape& s, DType model) {
  const double w = bytes_per_element(model), a = bytes_per_element(activation_dtype(model));
  return std::visit(
      Overloaded{[](const NoShape&) { return no_shape("bytes"); },
                 [&](const GemmShape& g) {
                   const double rows = g.batch * g.m;
                   const double b = g.weight == GemmWeight::B ? w * (g.k * g.n + g.bias * g.n) : a * g.batch * g.k * g.n;
                   return a * rows * g.k + b + a * rows * g.n;
                 },
                 [&](const AttentionShape& t) {
                   const double q = t.batch * t.q_len, h = t.heads * t.head_dim;
                   return a * (q * h + 2 * t.batch * t.kv_len * (t.kv_heads * t.head_dim) + q * h);
                 },
                 [&](const ElementwiseShape& e) {
                   return a * e.inputs * e.elements + w * e.weight_elements + a * e.elements;
                 },
                 [&](const GatherShape& t) { return w * t.tables * t.rows * t.width + a * t.rows * t.width; },
                 [&](const LstmShape& l) {
                   return w * shape_weight_elements(l) + a * (l.batch * l.input + 2 * l.batch * l.hidden) +
                          a * 2 * l.batch * l.hidden;
                 }},
      s);
}

double param_read_bytes(const OpShape& s, DType model, double param_bytes) {
  const auto* t = std::get_if<GatherShape>(&s);
  return t ? std::min(param_bytes, bytes_per_element(model) * t->rows * t->width) : param_bytes;
}

}  // namespace placesim::models
