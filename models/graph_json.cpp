// Graph files: JSON read through Json (every error located), written with nlohmann::json.
//
// Writing omits fields at their defaults (zero work, layer -1, an edge's default bytes) and
// prints doubles with nlohmann's shortest round-tripping form; reading parses numbers exactly
// (std::from_chars / strtod), so parse_graph(graph_to_json(g)) reproduces g field for field.
#include "models/graph_json.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/op_shape_json.hpp"

namespace placesim::models {

namespace {

// How far a node's "flops" may stray from its shape's, relative to the larger: shapes and flops
// written by graph_to_json agree exactly; 1e-9 leaves room for flops rounded to ten digits.
constexpr double kShapeFlopsTolerance = 1e-9;

// An op's shape, and its flops: given (checked against the shape) or else the shape's.
void read_shape(const Json& y, Node& n) {
  n.shape = parse_op_shape(y.at("shape"));
  const double derived = shape_flops(n.shape);
  if (!y.has("flops")) {
    n.flops = derived;
    return;
  }
  if (std::abs(n.flops - derived) > kShapeFlopsTolerance * std::max(std::abs(n.flops), std::abs(derived)))
    y.at("flops").fail(fmt::format("flops {} disagree with the {} shape's {} (more than {} relative)", n.flops,
                                   kind_name(n.shape), derived, kShapeFlopsTolerance));
}

// An edge without "bytes" carries the size of what its source produces.
double default_edge_bytes(const Node& src) {
  return src.kind == NodeKind::Param ? src.param_bytes : src.output_bytes;
}

Node parse_node(const Json& y) {
  Node n;
  n.loc = y.loc();
  if (y.has("param_bytes")) {
    y.allow_keys({"name", "param_bytes", "layer"});
    n.kind = NodeKind::Param;
    n.type = "param";
    n.param_bytes = y.at("param_bytes").bytes();
  } else {
    y.allow_keys({"name", "type", "flops", "bytes", "output_bytes", "state_bytes", "layer", "durations", "shape"});
    n.type = y.str_or("type", "op");
    n.flops = y.number_or("flops", 0);
    if (y.has("bytes")) n.bytes = y.at("bytes").bytes();
    if (y.has("output_bytes")) n.output_bytes = y.at("output_bytes").bytes();
    if (y.has("state_bytes")) n.state_bytes = y.at("state_bytes").bytes();
    if (y.has("durations"))
      for (const auto& [dev, s] : y.at("durations").entries()) n.durations[dev] = s.duration();
    if (y.has("shape")) read_shape(y, n);
  }
  n.name = y.at("name").str();
  const Json layer = y.get("layer");
  if (layer.defined()) {
    const auto l = layer.integer();
    if (l < -1 || l > 1'000'000) layer.fail("expected a layer index >= 0 (or -1 for none)");
    n.layer = static_cast<int>(l);
  }
  return n;
}

// An edge's end, looked up by the name in the file's text: no string is made per edge. `hint`
// is compared first (Graph::find).
int node_index(const Json& y, const Graph& g, int hint = -1) {
  const std::string_view name = y.view();
  const int i = g.find(name, hint);
  if (i < 0) y.fail(fmt::format("edge to missing node '{}'", name));
  return i;
}

}  // namespace

Graph parse_graph(const Json& doc) {
  doc.allow_keys({"name", "dtype", "nodes", "edges"});
  Graph g;
  g.name = doc.has("name") ? doc.at("name").str() : std::filesystem::path(doc.file()).stem().string();
  if (doc.has("dtype")) {
    const Json d = doc.at("dtype");
    try {
      g.dtype = parse_dtype(d.str());
    } catch (const InputError& e) {
      d.fail(e.detail());
    }
  }

  const std::vector<Json> nodes = doc.at("nodes").items();
  g.nodes.reserve(nodes.size());
  for (const Json& item : nodes) {
    Node n = parse_node(item);
    if (n.name.empty()) throw InputError(n.loc, "node without a name");  // as validate() says it
    if (const int first = g.add_named_node(std::move(n)); first >= 0)
      item.at("name").fail("duplicate node name '" + item.at("name").str() + "' (first defined at " + g.nodes[first].loc.str() + ")");
  }

  const std::vector<Json> edges = doc.has("edges") ? doc.at("edges").items() : std::vector<Json>{};
  g.edges.reserve(edges.size());
  // Edges are most often listed by source (graph_to_json writes them so) or by destination:
  // the last edge's ends are compared first, a hit where a hash probe and a node compare are two
  // cache misses. The destinations are then met in no order of the nodes': each is asked for a
  // few edges ahead.
  int last_src = -1, last_dst = -1;
  Graph::Lookahead ahead(g);
  const auto dst_at = [&](std::size_t k) -> std::optional<std::string_view> {
    if (const Json dst = edges[k].get("dst"); dst.is_scalar()) return dst.view();
    return std::nullopt;
  };
  for (std::size_t k = 0; k < edges.size(); ++k) {
    ahead.before(k, edges.size(), dst_at);
    const Json& item = edges[k];
    item.allow_keys({"src", "dst", "bytes", "time"});
    Edge e;
    e.loc = item.loc();
    e.src = last_src = node_index(item.at("src"), g, last_src);
    e.dst = last_dst = node_index(item.at("dst"), g, last_dst);
    e.bytes = item.has("bytes") ? item.at("bytes").bytes() : default_edge_bytes(g.nodes[e.src]);
    if (item.has("time")) e.time_s = item.at("time").duration();
    g.edges.push_back(std::move(e));
  }

  g.validate();
  return g;
}

Graph load_graph_json(const std::string& path) { return parse_graph(Json::load_file(path)); }

std::string graph_to_json(const Graph& g) {
  using Out = nlohmann::ordered_json;
  Out nodes = Out::array();
  for (const Node& n : g.nodes) {
    Out j;
    j["name"] = n.name;
    if (n.kind == NodeKind::Param) {
      j["param_bytes"] = n.param_bytes;
    } else {
      j["type"] = n.type;
      if (n.flops != 0) j["flops"] = n.flops;
      if (n.bytes != 0) j["bytes"] = n.bytes;
      if (n.output_bytes != 0) j["output_bytes"] = n.output_bytes;
      if (n.state_bytes != 0) j["state_bytes"] = n.state_bytes;
      if (!n.durations.empty()) {
        Out d = Out::object();
        for (const auto& [dev, s] : n.durations) d[dev] = s;
        j["durations"] = d;
      }
      if (has_shape(n.shape)) j["shape"] = op_shape_to_json(n.shape);
    }
    if (n.layer != -1) j["layer"] = n.layer;
    nodes.push_back(std::move(j));
  }
  Out edges = Out::array();
  for (const Edge& e : g.edges) {
    Out j;
    j["src"] = g.nodes[e.src].name;
    j["dst"] = g.nodes[e.dst].name;
    if (e.bytes != default_edge_bytes(g.nodes[e.src])) j["bytes"] = e.bytes;
    if (e.time_s) j["time"] = *e.time_s;
    edges.push_back(std::move(j));
  }
  Out doc;
  doc["name"] = g.name;
  doc["dtype"] = to_string(g.dtype);
  doc["nodes"] = std::move(nodes);
  doc["edges"] = std::move(edges);
  return doc.dump(2) + "\n";
}

}  // namespace placesim::models
