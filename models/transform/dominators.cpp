// Dominator partitioning (the method is in dominators.hpp).
#include "models/transform/dominators.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dominator_tree.hpp>
#include <fmt/format.h>
#include <map>

namespace placesim::models {

namespace {

bool has_op_neighbour(const Graph& g, std::span<const int> edges, bool sources) {
  for (int e : edges)
    if (g.nodes[sources ? g.edges[e].src : g.edges[e].dst].kind == NodeKind::Op) return true;
  return false;
}

}  // namespace

std::vector<int> partition_points(const Graph& g) {
  using BG = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  using Vertex = boost::graph_traits<BG>::vertex_descriptor;
  const int n = static_cast<int>(g.nodes.size());
  const Vertex root = n, sink = n + 1;  // vertices 0..n-1 are the nodes; parameters stay unconnected
  BG bg(n + 2);
  for (int v : g.ops()) {
    const bool input = !has_op_neighbour(g, g.in_edges(v), true), output = !has_op_neighbour(g, g.out_edges(v), false);
    if (input) boost::add_edge(root, v, bg);
    if (output) boost::add_edge(v, sink, bg);
    for (int e : g.out_edges(v))
      if (g.nodes[g.edges[e].dst].kind == NodeKind::Op) boost::add_edge(v, g.edges[e].dst, bg);
  }
  std::vector<Vertex> idom(n + 2, boost::graph_traits<BG>::null_vertex());
  boost::lengauer_tarjan_dominator_tree(
      bg, root, boost::make_iterator_property_map(idom.begin(), boost::get(boost::vertex_index, bg)));

  std::vector<int> points;
  if (idom[sink] == boost::graph_traits<BG>::null_vertex()) return points;  // no ops
  for (Vertex d = idom[sink]; d != root; d = idom[d]) {
    const int v = static_cast<int>(d);
    if (has_op_neighbour(g, g.in_edges(v), true) && has_op_neighbour(g, g.out_edges(v), false)) points.push_back(v);
  }
  std::reverse(points.begin(), points.end());
  return points;
}

Partition partition_by_dominators(const Graph& g, int ndom) {
  if (ndom < 1) throw InputError(fmt::format("ndom must be >= 1, got {}", ndom));
  Partition p;
  p.points = partition_points(g);
  std::vector<char> is_point(g.nodes.size(), 0);
  for (int v : p.points) is_point[v] = 1;
  std::vector<int> seg(g.nodes.size(), 0);
  p.submodel_of.assign(g.nodes.size(), -1);
  for (int v : g.ops()) {
    for (int e : g.in_edges(v)) {
      const int u = g.edges[e].src;
      if (g.nodes[u].kind == NodeKind::Op) seg[v] = std::max(seg[v], seg[u] + is_point[u]);
    }
    p.submodel_of[v] = seg[v] / ndom;
    for (int e : g.in_edges(v)) {
      const int u = g.edges[e].src;
      if (g.nodes[u].kind == NodeKind::Param && p.submodel_of[u] < 0) p.submodel_of[u] = p.submodel_of[v];
    }
  }
  p.submodels = (static_cast<int>(p.points.size()) + ndom) / ndom;
  if (g.ops().empty()) p.submodels = 0;
  return p;
}

std::vector<Submodel> split_submodels(const Graph& g, const Partition& p) {
  std::vector<Submodel> out(p.submodels);
  std::vector<std::map<int, int>> local(p.submodels);  // original node -> index in submodel k
  auto include = [&](int k, int v) {
    auto [it, fresh] = local[k].emplace(v, -1);
    if (fresh) {
      it->second = out[k].graph.add_node(g.nodes[v]);
      out[k].original.push_back(v);
    }
    return it->second;
  };
  for (int k = 0; k < p.submodels; ++k) {
    out[k].graph.name = fmt::format("{}.sub{}", g.name, k);
    out[k].graph.dtype = g.dtype;
  }
  for (int v : g.ops()) include(p.submodel_of[v], v);
  for (const Edge& e : g.edges) {
    const int k = p.submodel_of[e.dst];
    int src;
    if (g.nodes[e.src].kind == NodeKind::Param) {
      src = include(k, e.src);
    } else if (p.submodel_of[e.src] == k) {
      src = local[k].at(e.src);
    } else {
      PLACESIM_ASSERT(p.submodel_of[e.src] == k - 1, "an edge skips a submodel");
      auto [it, fresh] = local[k].emplace(-1 - e.src, -1);  // the placeholder, keyed apart from real nodes
      if (fresh) {
        Node ph;
        ph.name = g.nodes[e.src].name + ".placeholder";
        ph.type = "placeholder";
        ph.output_bytes = g.nodes[e.src].output_bytes;
        ph.loc = g.nodes[e.src].loc;
        it->second = out[k].graph.add_node(std::move(ph));
        out[k].original.push_back(-1);
      }
      src = it->second;
    }
    Edge copy = e;
    copy.src = src;
    copy.dst = local[k].at(e.dst);
    out[k].graph.edges.push_back(std::move(copy));
  }
  for (Submodel& s : out) s.graph.validate();
  return out;
}

}  // namespace placesim::models
