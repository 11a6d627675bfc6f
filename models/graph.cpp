// Graph checks and derived structure: adjacency lists and a deterministic topological order.
//
// Topological order is Kahn's algorithm taking the ready node with the smallest index first,
// so the same graph always gives the same order (placers that iterate it stay reproducible).
// When Kahn stops early the remaining nodes contain a cycle; walking back along in-edges that
// stay inside the remainder must revisit a node, and that node lies on the cycle reported.
#include "models/graph.hpp"

#include <fmt/format.h>
#include <functional>
#include <queue>
#include <string_view>
#include <unordered_map>

#include "sim/core/error.hpp"
#include "sim/core/time.hpp"

namespace placesim::models {

int Graph::add_node(Node n) {
  nodes.push_back(std::move(n));
  return static_cast<int>(nodes.size()) - 1;
}

int Graph::add_named_node(Node n) {
  PLACESIM_ASSERT(by_name_.size() == nodes.size() && (nodes.empty() || by_name_.bound_to(nodes.data(), nodes.size())),
                  "add_named_node on a graph with nodes added otherwise");
  const std::int64_t first = by_name_.insert(n.name, static_cast<std::uint32_t>(nodes.size()),
                                             [&](std::uint32_t i) -> std::string_view { return nodes[i].name; });
  if (first >= 0) return static_cast<int>(first);
  nodes.push_back(std::move(n));
  by_name_.bind(nodes.data(), nodes.size());
  named_ = true;
  return -1;
}

int Graph::add_edge(int src, int dst, double bytes) {
  Edge e;
  e.src = src;
  e.dst = dst;
  e.bytes = bytes;
  edges.push_back(std::move(e));
  return static_cast<int>(edges.size()) - 1;
}

int Graph::find(std::string_view n) const {
  // Indexed by validate(), on this very vector (a copied graph scans until validated), and no
  // node added since.
  if (by_name_.bound_to(nodes.data(), nodes.size())) {
    return static_cast<int>(by_name_.find(n, [&](std::uint32_t i) -> std::string_view { return nodes[i].name; }));
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == n) return static_cast<int>(i);
  return -1;
}

int Graph::find(std::string_view n, int hint) const {
  if (hint >= 0 && hint < static_cast<int>(nodes.size()) && nodes[hint].name == n) return hint;
  return find(n);
}

void Graph::Lookahead::ask(std::string_view name) {
  if (!live_) return;
  const std::uint32_t h = NameIndex::hash(name);
  g_.by_name_.ask_slot(h);
  // The name asked for kDistance / 2 calls ago: its slot has had time to arrive.
  constexpr std::size_t half = kDistance / 2;
  if (asked_ >= half) {
    const std::int64_t i = g_.by_name_.first_candidate(hashes_[(asked_ - half) % kDistance]);
    // The node's name (a short one is held in the node; a long one's own block is not asked
    // for: reading where it is would wait for the node).
    if (i >= 0) prefetch(&g_.nodes[static_cast<std::size_t>(i)].name);
  }
  hashes_[asked_++ % kDistance] = h;
}

namespace {

// `what()` names the node or edge; it is called only to fail (a 1M-node graph would otherwise
// format millions of names for nothing).
template <class What>
void check_non_negative(const SourceLoc& loc, const What& what, std::string_view field, double v) {
  if (!(v >= 0)) throw InputError(loc, fmt::format("{}: {} must be >= 0, got {}", what(), field, v));
}

// An amount of work: >= 0 and at most `max` (kMaxInputFlops or kMaxInputBytes).
template <class What>
void check_work(const SourceLoc& loc, const What& what, std::string_view field, double v, double max) {
  check_non_negative(loc, what, field, v);
  if (v > max)
    throw InputError(loc, fmt::format("{}: {} must be at most {:g} (more would outlast the simulated clock at "
                                      "any real device's speed), got {:g}",
                                      what(), field, max, v));
}

void check_node(const Node& n) {
  const auto what = [&] { return fmt::format("node '{}'", n.name); };
  check_work(n.loc, what, "flops", n.flops, kMaxInputFlops);
  check_work(n.loc, what, "bytes", n.bytes, kMaxInputBytes);
  check_work(n.loc, what, "output_bytes", n.output_bytes, kMaxInputBytes);
  check_work(n.loc, what, "param_bytes", n.param_bytes, kMaxInputBytes);
  check_work(n.loc, what, "state_bytes", n.state_bytes, kMaxInputBytes);
  for (const auto& [dev, s] : n.durations)
    if (!(s >= 0)) check_non_negative(n.loc, what, "duration on '" + dev + "'", s);
}

}  // namespace

void Graph::validate_nodes() {
  // Indexed by add_named_node, every name once, none a duplicate: kept for this validation only
  // (a later one indexes again, whatever was done to the nodes in between).
  const bool indexed = named_ && by_name_.bound_to(nodes.data(), nodes.size());
  named_ = false;
  if (!indexed) {
    by_name_.clear();
    by_name_.reserve(nodes.size());
  }
  const auto name_of = [&](std::uint32_t i) -> std::string_view { return nodes[i].name; };
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) {
    const Node& node = nodes[i];
    if (node.name.empty()) throw InputError(node.loc, "node without a name");
    if (indexed) {
      check_node(node);
      continue;
    }
    if (const std::int64_t first = by_name_.insert(node.name, static_cast<std::uint32_t>(i), name_of); first >= 0) {
      throw InputError(node.loc, fmt::format("duplicate node name '{}' (first defined at {})", node.name,
                                             nodes[first].loc.str()));
    }
    check_node(node);
  }
  by_name_.bind(nodes.data(), nodes.size());
}

void Graph::validate() {
  validate_nodes();
  const int n = static_cast<int>(nodes.size());
  in_ = out_ = IdRows{};  // a graph that fails keeps empty lists
  for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
    const Edge& edge = edges[e];
    if (edge.src < 0 || edge.src >= n || edge.dst < 0 || edge.dst >= n)
      throw InputError(edge.loc, fmt::format("edge {} -> {} names a missing node", edge.src, edge.dst));
    const auto what = [&] { return fmt::format("edge '{}' -> '{}'", nodes[edge.src].name, nodes[edge.dst].name); };
    check_work(edge.loc, what, "bytes", edge.bytes, kMaxInputBytes);
    if (edge.time_s) check_non_negative(edge.loc, what, "time", *edge.time_s);
    if (nodes[edge.dst].kind == NodeKind::Param)
      throw InputError(edge.loc, fmt::format("{}: a parameter cannot have inputs", what()));
  }
  const auto edges_by = [&](int Edge::*end) {
    return IdRows::build(static_cast<std::size_t>(n), [&](const auto& emit) {
      for (int e = 0; e < static_cast<int>(edges.size()); ++e) emit(static_cast<std::size_t>(edges[e].*end), e);
    });
  };
  in_ = edges_by(&Edge::dst);
  out_ = edges_by(&Edge::src);

  // Kahn, smallest ready index first.
  std::vector<int> indegree(n);
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int i = 0; i < n; ++i) {
    indegree[i] = static_cast<int>(in_edges(i).size());
    if (indegree[i] == 0) ready.push(i);
  }
  topo_.clear();
  while (!ready.empty()) {
    const int v = ready.top();
    ready.pop();
    topo_.push_back(v);
    for (int e : out_edges(v))
      if (--indegree[edges[e].dst] == 0) ready.push(edges[e].dst);
  }
  if (static_cast<int>(topo_.size()) == n) return;

  // Every node left has an in-edge from another node left: walk back until one repeats.
  int v = 0;
  while (indegree[v] == 0) ++v;
  std::vector<int> seen_at(n, -1);
  std::vector<int> path;
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<int>(path.size());
    path.push_back(v);
    for (int e : in_edges(v))
      if (indegree[edges[e].src] > 0) {
        v = edges[e].src;
        break;
      }
  }
  // path[seen_at[v]..] walked backwards is the cycle; print it forwards from v.
  std::string cycle = nodes[v].name;
  for (int i = static_cast<int>(path.size()) - 1; i >= seen_at[v]; --i) cycle += " -> " + nodes[path[i]].name;
  topo_.clear();
  throw InputError(nodes[v].loc, fmt::format("cycle through node '{}': {}", nodes[v].name, cycle));
}

std::vector<int> Graph::ops() const {
  std::vector<int> out;
  for (int v : topo_)
    if (nodes[v].kind == NodeKind::Op) out.push_back(v);
  return out;
}

std::vector<int> Graph::params() const {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i)
    if (nodes[i].kind == NodeKind::Param) out.push_back(i);
  return out;
}

}  // namespace placesim::models
