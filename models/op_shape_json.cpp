// Shapes in graph files: the format is in op_shape_json.hpp. Writing omits keys at their
// defaults and writes dimensions as integers, so reading gives back the same shape.
#include "models/op_shape_json.hpp"

#include <cmath>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::models {

namespace {

using Out = nlohmann::ordered_json;

double positive_dim(const Json& y) {
  const auto v = y.integer();
  if (v < 1) y.fail(fmt::format("expected a positive integer dimension, got {}", v));
  return static_cast<double>(v);
}

double dim_or(const Json& y, std::string_view key, double def) { return y.has(key) ? positive_dim(y.at(key)) : def; }

double count_or(const Json& y, std::string_view key, double def) {
  if (!y.has(key)) return def;
  const Json v = y.at(key);
  const auto n = v.integer();
  if (n < 0) v.fail(fmt::format("expected an integer >= 0, got {}", n));
  return static_cast<double>(n);
}

GemmShape parse_gemm(const Json& y) {
  y.allow_keys({"batch", "m", "n", "k", "weight", "bias"});
  GemmShape g;
  g.batch = dim_or(y, "batch", 1);
  g.m = positive_dim(y.at("m"));
  g.n = positive_dim(y.at("n"));
  g.k = positive_dim(y.at("k"));
  if (y.has("weight")) {
    const Json w = y.at("weight");
    if (w.str() == "b") g.weight = GemmWeight::B;
    else if (w.str() != "none") w.fail("expected weight 'b' (operand B is a parameter) or 'none', got '" + w.str() + "'");
  }
  g.bias = y.boolean_or("bias", false) ? 1 : 0;
  return g;
}

AttentionShape parse_attention(const Json& y) {
  y.allow_keys({"batch", "heads", "kv_heads", "head_dim", "q_len", "kv_len"});
  AttentionShape a;
  a.batch = dim_or(y, "batch", 1);
  a.heads = positive_dim(y.at("heads"));
  a.kv_heads = dim_or(y, "kv_heads", a.heads);
  if (std::fmod(a.heads, a.kv_heads) != 0)
    y.at("kv_heads").fail(fmt::format("kv_heads {} must divide heads {}", a.kv_heads, a.heads));
  a.head_dim = positive_dim(y.at("head_dim"));
  a.q_len = positive_dim(y.at("q_len"));
  a.kv_len = positive_dim(y.at("kv_len"));
  return a;
}

ElementwiseShape parse_elementwise(const Json& y) {
  y.allow_keys({"elements", "flops_per_element", "inputs", "weight_elements"});
  ElementwiseShape e;
  e.elements = positive_dim(y.at("elements"));
  if (y.has("flops_per_element")) {
    const Json f = y.at("flops_per_element");
    e.flops_per_element = f.number();
    if (!(e.flops_per_element >= 0)) f.fail(fmt::format("expected flops_per_element >= 0, got {}", f.str()));
  }
  e.inputs = count_or(y, "inputs", 1);
  e.weight_elements = count_or(y, "weight_elements", 0);
  return e;
}

GatherShape parse_gather(const Json& y) {
  y.allow_keys({"rows", "width", "tables", "table_rows"});
  GatherShape t;
  t.rows = positive_dim(y.at("rows"));
  t.width = positive_dim(y.at("width"));
  t.tables = count_or(y, "tables", 1);
  t.table_rows = positive_dim(y.at("table_rows"));
  return t;
}

LstmShape parse_lstm(const Json& y) {
  y.allow_keys({"batch", "input", "hidden"});
  LstmShape l;
  l.batch = dim_or(y, "batch", 1);
  l.input = positive_dim(y.at("input"));
  l.hidden = positive_dim(y.at("hidden"));
  return l;
}

// A dimension of a graph's shape is a whole number (only slices have fractional ones).
std::int64_t whole(double v) {
  PLACESIM_ASSERT(v == std::floor(v), "a graph's shape dimension must be a whole number");
  return static_cast<std::int64_t>(v);
}

Out to_json(const GemmShape& g) {
  Out j;
  if (g.batch != 1) j["batch"] = whole(g.batch);
  j["m"] = whole(g.m);
  j["n"] = whole(g.n);
  j["k"] = whole(g.k);
  if (g.weight == GemmWeight::B) j["weight"] = "b";
  PLACESIM_ASSERT(g.bias == 0 || g.bias == 1, "a graph's gemm adds its whole bias or none");
  if (g.bias == 1) j["bias"] = true;
  return j;
}

Out to_json(const AttentionShape& a) {
  Out j;
  if (a.batch != 1) j["batch"] = whole(a.batch);
  j["heads"] = whole(a.heads);
  if (a.kv_heads != a.heads) j["kv_heads"] = whole(a.kv_heads);
  j["head_dim"] = whole(a.head_dim);
  j["q_len"] = whole(a.q_len);
  j["kv_len"] = whole(a.kv_len);
  return j;
}

Out to_json(const ElementwiseShape& e) {
  Out j;
  j["elements"] = whole(e.elements);
  if (e.flops_per_element != 1) j["flops_per_element"] = e.flops_per_element;
  if (e.inputs != 1) j["inputs"] = whole(e.inputs);
  if (e.weight_elements != 0) j["weight_elements"] = whole(e.weight_elements);
  return j;
}

Out to_json(const GatherShape& t) {
  Out j;
  j["rows"] = whole(t.rows);
  j["width"] = whole(t.width);
  if (t.tables != 1) j["tables"] = whole(t.tables);
  j["table_rows"] = whole(t.table_rows);
  return j;
}

Out to_json(const LstmShape& l) {
  Out j;
  if (l.batch != 1) j["batch"] = whole(l.batch);
  j["input"] = whole(l.input);
  j["hidden"] = whole(l.hidden);
  return j;
}

Out to_json(const NoShape&) {
  PLACESIM_ASSERT(false, "an op without a shape writes no shape");
  return {};
}

}  // namespace

OpShape parse_op_shape(const Json& y) {
  const auto entries = y.is_map() ? y.entries() : decltype(y.entries()){};
  if (entries.size() != 1)
    y.fail("expected a shape of one kind: {\"gemm\": {...}}, {\"attention\": {...}}, {\"elementwise\": {...}}, "
           "{\"gather\": {...}} or {\"lstm\": {...}}");
  const auto& [kind, dims] = entries.front();
  if (kind == "gemm") return parse_gemm(dims);
  if (kind == "attention") return parse_attention(dims);
  if (kind == "elementwise") return parse_elementwise(dims);
  if (kind == "gather") return parse_gather(dims);
  if (kind == "lstm") return parse_lstm(dims);
  y.allow_keys({"gemm", "attention", "elementwise", "gather", "lstm"});  // fails at the unknown kind's key
  return NoShape{};
}

nlohmann::ordered_json op_shape_to_json(const OpShape& s) {
  Out j;
  j[kind_name(s)] = std::visit([](const auto& shape) { return to_json(shape); }, s);
  return j;
}

}  // namespace placesim::models
