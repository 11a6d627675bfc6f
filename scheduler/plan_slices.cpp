// The sliced graph; plan_slices.hpp states the layout and the edge rules.
#include "scheduler/plan_slices.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <queue>

#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace {

using models::NodeKind;
using models::Part;

// The whole shape's figure against the slice's: the factor a slice scales the op's number by.
double ratio(double slice, double whole, double share) { return whole > 0 ? slice / whole : share; }

struct Layout {
  models::Graph graph;                       // nodes only
  std::map<int, std::vector<int>> slices;    // split op or partitioned parameter -> its slice nodes
  std::map<int, std::vector<models::Slice>> shapes;  // split op -> each slice's shape and parts
};

// The parameters a split partitions: the op's parameter inputs, when the axis splits its weight.
std::vector<int> partitioned_params(const models::Graph& g, int op, const models::Slice& first) {
  std::vector<int> out;
  if (!first.partitions_weight) return out;
  for (int e : g.in_edges(op))
    if (g.nodes[g.edges[e].src].kind == NodeKind::Param) out.push_back(g.edges[e].src);
  return out;
}

Layout layout(const models::Graph& g, const std::map<int, PlanSplit>& splits) {
  Layout l;
  l.graph.name = g.name;
  l.graph.dtype = g.dtype;
  l.graph.nodes = g.nodes;
  l.slices = slice_ids(g, splits);
  l.graph.nodes.resize(g.nodes.size() + [&] {
    size_t added = 0;
    for (auto& [_, ids] : l.slices) added += ids.size() - 1;
    return added;
  }());
  for (auto& [op, split] : splits) {
    const models::Node& node = g.nodes[op];
    std::vector<models::Slice>& shapes = l.shapes[op];
    const std::vector<int>& ids = l.slices.at(op);
    for (size_t i = 0; i < split.slices.size(); ++i) {
      const double s = split.slices[i].share;
      shapes.push_back(models::slice_shape(node.shape, split.axis, s));
      const models::OpShape& sub = shapes.back().shape;
      models::Node& n = l.graph.nodes[ids[i]] = node;
      n.name = fmt::format("{}#{}", node.name, i);
      n.shape = sub;
      n.flops = node.flops * ratio(models::shape_flops(sub), models::shape_flops(node.shape), s);
      n.bytes = node.bytes * ratio(models::shape_bytes(sub, g.dtype), models::shape_bytes(node.shape, g.dtype), s);
      n.output_bytes = shapes.back().output == Part::Partial ? node.output_bytes : node.output_bytes * s;
      n.state_bytes = node.state_bytes * s;
    }
    const double whole = models::shape_weight_bytes(node.shape, g.dtype);
    for (int w : partitioned_params(g, op, shapes.front())) {
      const models::Node& param = g.nodes[w];
      const std::vector<int>& wids = l.slices.at(w);
      for (size_t i = 0; i < split.slices.size(); ++i) {
        models::Node& n = l.graph.nodes[wids[i]] = param;
        n.name = fmt::format("{}#{}", param.name, i);
        n.param_bytes = param.param_bytes *
                        ratio(models::shape_weight_bytes(shapes[i].shape, g.dtype), whole, split.slices[i].share);
      }
    }
  }
  return l;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// The collective that joins producer slices `from` to consumer nodes `to`, or nullptr.
const PlanCollective* join_of(const std::vector<PlanCollective>& cs, const std::vector<int>& from,
                              const std::vector<int>& to) {
  for (const PlanCollective& c : cs) {
    const bool after = std::any_of(from.begin(), from.end(), [&](int n) { return contains(c.after, n); });
    const bool before = std::any_of(to.begin(), to.end(), [&](int n) { return contains(c.before, n); });
    if (after && before) return &c;
  }
  return nullptr;
}

// Consumer `v` reads exactly what each slice of `u` makes, where it is made.
bool aligned(const PlanSplit& u, const models::Slice& u0, const PlanSplit* v, const models::Slice* v0) {
  if (!v || u0.output != v0->input || u0.output == Part::Whole || u0.output == Part::Partial) return false;
  if (u.slices.size() != v->slices.size()) return false;
  for (size_t i = 0; i < u.slices.size(); ++i)
    if (u.slices[i].device != v->slices[i].device || std::abs(u.slices[i].share - v->slices[i].share) > 1e-12)
      return false;
  return true;
}

}  // namespace

models::Graph slice_nodes(const models::Graph& g, const std::map<int, PlanSplit>& splits) {
  return layout(g, splits).graph;
}

std::map<int, std::vector<int>> slice_ids(const models::Graph& g, const std::map<int, PlanSplit>& splits) {
  std::map<int, std::vector<int>> ids;
  int next = static_cast<int>(g.nodes.size());
  auto number = [&](int node, size_t k) {
    std::vector<int>& v = ids[node];
    v.push_back(node);
    for (size_t i = 1; i < k; ++i) v.push_back(next++);
  };
  for (auto& [op, split] : splits) {
    number(op, split.slices.size());
    const models::Slice first = models::slice_shape(g.nodes[op].shape, split.axis, split.slices.front().share);
    for (int w : partitioned_params(g, op, first)) number(w, split.slices.size());
  }
  return ids;
}

models::Graph slice_graph(const models::Graph& g, const Plan& plan) {
  Layout l = layout(g, plan.splits);
  models::Graph& out = l.graph;
  auto ids = [&](int n) {
    auto it = l.slices.find(n);
    return it == l.slices.end() ? std::vector<int>{n} : it->second;
  };
  auto add = [&](const models::Edge& e, int src, int dst, double scale) {
    models::Edge copy = e;
    copy.src = src;
    copy.dst = dst;
    copy.bytes = e.bytes * scale;
    out.edges.push_back(copy);
  };
  for (const models::Edge& e : g.edges) {
    const auto su = plan.splits.find(e.src);
    const auto sv = plan.splits.find(e.dst);
    const PlanSplit* v = sv == plan.splits.end() ? nullptr : &sv->second;
    const std::vector<models::Slice>* vshape = v ? &l.shapes.at(e.dst) : nullptr;
    // The part of its input slice j of the consumer reads.
    auto reads = [&](size_t j) { return v && vshape->at(j).input != Part::Whole ? v->slices[j].share : 1.0; };
    const std::vector<int> to = ids(e.dst);
    if (g.nodes[e.src].kind == NodeKind::Param) {
      if (l.slices.count(e.src)) {
        if (g.out_edges(e.src).size() != 1)
          throw InputError(e.loc, fmt::format("parameter '{}' is read by split op '{}' and by other ops: a {} split "
                                              "partitions it, so it cannot be shared",
                                              g.nodes[e.src].name, g.nodes[e.dst].name, to_string(v->axis)));
        const std::vector<int> from = ids(e.src);
        for (size_t j = 0; j < to.size(); ++j) add(e, from[j], to[j], v->slices[j].share);
      } else {
        for (int t : to) add(e, e.src, t, 1);
      }
      continue;
    }
    if (su == plan.splits.end()) {
      for (size_t j = 0; j < to.size(); ++j) add(e, e.src, to[j], reads(j));
      continue;
    }
    const PlanSplit& u = su->second;
    const models::Slice& u0 = l.shapes.at(e.src).front();
    const std::vector<int> from = ids(e.src);
    if (aligned(u, u0, v, vshape ? &vshape->front() : nullptr)) {
      for (size_t i = 0; i < from.size(); ++i) add(e, from[i], to[i], u.slices[i].share);
      continue;
    }
    const std::string& un = g.nodes[e.src].name;
    const std::string& vn = g.nodes[e.dst].name;
    if (const PlanCollective* c = join_of(plan.collectives, from, to)) {
      if (u0.output == Part::Partial && c->op != engine::CollectiveOp::AllReduce &&
          c->op != engine::CollectiveOp::ReduceScatter)
        throw InputError(e.loc, fmt::format("collective '{}' joins row-split '{}' for '{}' by {}, but its slices hold "
                                            "partial sums: they need a reduce (all-reduce or reduce-scatter)",
                                            c->name, un, vn, engine::to_string(c->op)));
      continue;
    }
    if (u0.output == Part::Partial)
      throw InputError(e.loc, fmt::format("op '{}' reads the partial sums of row-split '{}' with no reduce to join them "
                                          "(add an all-reduce or reduce-scatter with after: [{}] and before: [{}])",
                                          vn, un, un, vn));
    for (size_t i = 0; i < from.size(); ++i)
      for (size_t j = 0; j < to.size(); ++j) add(e, from[i], to[j], u.slices[i].share * reads(j));
  }
  out.validate();
  return std::move(out);
}

Problem sliced_problem(const Problem& p, const Plan& plan) {
  if (plan.splits.empty()) return p;
  Problem q = p;
  q.graph = std::make_shared<const models::Graph>(slice_graph(*p.graph, plan));
  return q;
}

std::vector<int> plan_order(const models::Graph& sliced, const std::vector<PlanCollective>& collectives) {
  const int n = static_cast<int>(sliced.nodes.size());
  std::vector<std::vector<int>> next(n);
  std::vector<int> indegree(n, 0);
  auto link = [&](int a, int b) {
    next[a].push_back(b);
    ++indegree[b];
  };
  for (const models::Edge& e : sliced.edges) link(e.src, e.dst);
  for (const PlanCollective& c : collectives)
    for (int a : c.after)
      for (int b : c.before) link(a, b);
  // Kahn's algorithm, smallest index first among the ready: deterministic, and the graph's own
  // order where the collectives add nothing.
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<int> order;
  while (!ready.empty()) {
    const int v = ready.top();
    ready.pop();
    if (sliced.nodes[v].kind == NodeKind::Op) order.push_back(v);
    for (int w : next[v])
      if (--indegree[w] == 0) ready.push(w);
  }
  const size_t ops = static_cast<size_t>(
      std::count_if(sliced.nodes.begin(), sliced.nodes.end(), [](const models::Node& x) { return x.kind == NodeKind::Op; }));
  if (order.size() != ops) throw InputError("the plan's collectives make a cycle: an op waits for a collective that waits for it");
  return order;
}

}  // namespace placesim::scheduler
