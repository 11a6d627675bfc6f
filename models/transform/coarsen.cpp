// GCOF (MOIRAI Algorithm 1) over the Graph IR; the rules and the fused node's work are stated in
// fusion.hpp. Groups form a merge tree (each merge records its two halves) so that unbind can
// release a bound group into exactly what it was made of; a union-find finds an op's current
// group. One pass over the edges: O(V + E) apart from the (short) rule matching.
#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "models/transform/fusion.hpp"

namespace placesim::models {

namespace {

enum class Tag { Single, Fused, Bound };

struct Group {
  std::vector<std::string> types;
  int head = -1, tail = -1;    // first and last op of the chain
  int left = -1, right = -1;   // the groups merged into this one
  Tag tag = Tag::Single;
};

bool is_rule(const std::vector<std::string>& types, const std::vector<FusionRule>& rules) {
  return std::find(rules.begin(), rules.end(), types) != rules.end();
}

bool is_sub_rule(const std::vector<std::string>& types, const std::vector<FusionRule>& rules) {
  for (const FusionRule& r : rules)
    if (types.size() < r.size() && std::search(r.begin(), r.end(), types.begin(), types.end()) != r.end()) return true;
  return false;
}

class Fuser {
 public:
  Fuser(const Graph& g, const std::vector<FusionRule>& rules) : g_(g), rules_(rules), top_(g.nodes.size()) {
    std::iota(top_.begin(), top_.end(), 0);
    for (int v = 0; v < static_cast<int>(g.nodes.size()); ++v) {
      Group leaf;
      leaf.types = {g.nodes[v].type};
      leaf.head = leaf.tail = v;
      groups_.push_back(std::move(leaf));
    }
  }

  // Final groups, each as its member ops in chain order.
  std::vector<std::vector<int>> run() {
    for (int u : g_.ops()) {
      const int consumers = consumer_ops(u);
      for (int e : g_.out_edges(u)) {
        const int v = g_.edges[e].dst;
        if (g_.nodes[v].kind != NodeKind::Op || consumers != 1) continue;
        const int a = find(u), b = find(v);
        if (a == b || groups_[a].tail != u || groups_[b].head != v) continue;
        std::vector<std::string> types = groups_[a].types;
        types.insert(types.end(), groups_[b].types.begin(), groups_[b].types.end());
        if (is_rule(types, rules_)) merge(a, b, std::move(types), Tag::Fused);
        else if (is_sub_rule(types, rules_)) merge(a, b, std::move(types), Tag::Bound);
      }
    }
    std::vector<std::vector<int>> out;
    std::set<int> roots;
    for (int v : g_.ops()) roots.insert(find(v));
    for (int r : roots) unbind(r, out);
    return out;
  }

 private:
  int consumer_ops(int u) const {
    std::set<int> c;
    for (int e : g_.out_edges(u))
      if (g_.nodes[g_.edges[e].dst].kind == NodeKind::Op) c.insert(g_.edges[e].dst);
    return static_cast<int>(c.size());
  }

  int find(int v) {
    while (top_[v] != v) v = top_[v] = top_[top_[v]];
    return v;
  }

  // The merged group takes a new id, and both halves point at it in the union-find.
  void merge(int a, int b, std::vector<std::string> types, Tag tag) {
    Group m;
    m.types = std::move(types);
    m.head = groups_[a].head;
    m.tail = groups_[b].tail;
    m.left = a;
    m.right = b;
    m.tag = tag;
    groups_.push_back(std::move(m));
    top_.push_back(static_cast<int>(top_.size()));
    top_[a] = top_[b] = static_cast<int>(groups_.size()) - 1;
  }

  void members(int grp, std::vector<int>& out) const {
    if (groups_[grp].tag == Tag::Single) {
      out.push_back(grp);
      return;
    }
    members(groups_[grp].left, out);
    members(groups_[grp].right, out);
  }

  void unbind(int grp, std::vector<std::vector<int>>& out) const {
    if (groups_[grp].tag == Tag::Bound) {
      unbind(groups_[grp].left, out);
      unbind(groups_[grp].right, out);
      return;
    }
    out.emplace_back();
    members(grp, out.back());
  }

  const Graph& g_;
  const std::vector<FusionRule>& rules_;
  std::vector<Group> groups_;  // ids < nodes.size() are the single ops
  std::vector<int> top_;       // union-find parent over group ids
};

std::string joined(const Graph& g, const std::vector<int>& ops, std::string Node::*field) {
  std::string s;
  for (int v : ops) s += (s.empty() ? "" : "+") + g.nodes[v].*field;
  return s;
}

Node fused_node(const Graph& g, const std::vector<int>& ops, const std::vector<int>& group_of) {
  if (ops.size() == 1) return g.nodes[ops[0]];
  Node n = g.nodes[ops[0]];
  n.name = joined(g, ops, &Node::name);
  n.type = joined(g, ops, &Node::type);
  n.flops = n.bytes = n.state_bytes = 0;
  n.shape = NoShape{};  // a fused group is several ops: no one shape to split it along
  n.output_bytes = g.nodes[ops.back()].output_bytes;
  for (int v : ops) {
    const Node& m = g.nodes[v];
    n.flops += m.flops;
    n.bytes += m.bytes;
    n.state_bytes += m.state_bytes;
    for (auto it = n.durations.begin(); it != n.durations.end();) {
      auto d = m.durations.find(it->first);
      if (d == m.durations.end()) {
        it = n.durations.erase(it);
        continue;
      }
      if (v != ops[0]) it->second += d->second;
      ++it;
    }
    for (int e : g.in_edges(v))
      if (g.nodes[g.edges[e].src].kind == NodeKind::Op && group_of[g.edges[e].src] == group_of[v])
        n.bytes -= 2 * g.edges[e].bytes;
  }
  n.bytes = std::max(0.0, n.bytes);
  return n;
}

}  // namespace

Coarsened coarsen(const Graph& g, const std::vector<FusionRule>& rules) {
  std::vector<std::vector<int>> groups = Fuser(g, rules).run();
  for (int p : g.params()) groups.push_back({p});
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return *std::min_element(a.begin(), a.end()) < *std::min_element(b.begin(), b.end()); });

  Coarsened c;
  c.group_of.assign(g.nodes.size(), -1);
  for (int i = 0; i < static_cast<int>(groups.size()); ++i)
    for (int v : groups[i]) c.group_of[v] = i;
  c.graph.name = g.name;
  c.graph.dtype = g.dtype;
  for (const auto& members : groups) c.graph.add_node(fused_node(g, members, c.group_of));

  std::set<std::pair<int, int>> param_edges;
  for (const Edge& e : g.edges) {
    const int s = c.group_of[e.src], d = c.group_of[e.dst];
    if (s == d) continue;
    if (g.nodes[e.src].kind == NodeKind::Param && !param_edges.insert({s, d}).second) continue;
    Edge out = e;
    out.src = s;
    out.dst = d;
    c.graph.edges.push_back(std::move(out));
  }
  c.graph.validate();
  return c;
}

}  // namespace placesim::models
