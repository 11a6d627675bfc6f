// The sliced graph; slices.hpp states the layout and the edge rules.
#include "scheduler/plan/slices.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <fmt/format.h>
#include <queue>

#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace {

using models::NodeKind;
using models::Part;

// The whole shape's figure against the slice's: the factor a slice scales the op's number by.
double ratio(double slice, double whole, double share) { return whole > 0 ? slice / whole : share; }

// One slice of a split op: its shape, and per level of the split (the axis, then the inner axis)
// what it reads of its inputs and what its output is a part of.
struct SliceInfo {
  models::OpShape shape;
  bool partitions_weight = false;
  double reads = 1;   // the part of each activation input it reads
  double makes = 1;   // the part of the op's output it holds (partial sums: all of it)
  std::vector<models::Slice> levels;
};

SliceInfo slice_info(const models::OpShape& whole, const PlanSplit& split, const PlanSlice& slice) {
  SliceInfo info;
  info.shape = whole;
  auto level = [&](models::Axis axis, double share) {
    const models::Slice s = models::slice_shape(info.shape, axis, share);
    info.shape = s.shape;
    info.partitions_weight = info.partitions_weight || s.partitions_weight;
    if (s.input != Part::Whole) info.reads *= share;
    if (s.output != Part::Whole && s.output != Part::Partial) info.makes *= share;
    info.levels.push_back(s);
  };
  level(split.axis, slice.share);
  if (split.inner) level(*split.inner, slice.inner_share);
  return info;
}

struct Layout {
  models::Graph graph;                                    // nodes only
  std::map<int, std::vector<int>> slices;                 // split op or partitioned parameter -> its slice nodes
  std::map<int, std::vector<SliceInfo>> info;             // split op -> its slices
};

// The parameters a split partitions: the op's parameter inputs, when an axis splits its weight.
std::vector<int> partitioned_params(const models::Graph& g, int op, const SliceInfo& first) {
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
  size_t added = 0;
  for (auto& [_, ids] : l.slices) added += ids.size() - 1;
  l.graph.nodes.resize(g.nodes.size() + added);
  for (auto& [op, split] : splits) {
    const models::Node& node = g.nodes[op];
    std::vector<SliceInfo>& infos = l.info[op];
    const std::vector<int>& ids = l.slices.at(op);
    const bool shaped = models::has_shape(node.shape);
    for (size_t i = 0; i < split.slices.size(); ++i) {
      const PlanSlice& slice = split.slices[i];
      const double s = slice.share * slice.inner_share;
      infos.push_back(slice_info(node.shape, split, slice));
      const SliceInfo& info = infos.back();
      models::Node& n = l.graph.nodes[ids[i]] = node;
      n.name = fmt::format("{}#{}", node.name, i);
      n.shape = info.shape;
      if (shaped) {
        n.flops = node.flops * ratio(models::shape_flops(info.shape), models::shape_flops(node.shape), s);
        n.bytes = node.bytes * ratio(models::shape_bytes(info.shape, g.dtype), models::shape_bytes(node.shape, g.dtype), s);
      }
      n.output_bytes = node.output_bytes * info.makes;
      n.state_bytes = split.axis == models::Axis::Replicas ? node.state_bytes : node.state_bytes * s;
    }
    const double whole = shaped ? models::shape_weight_bytes(node.shape, g.dtype) : 0;
    for (int w : partitioned_params(g, op, infos.front())) {
      const models::Node& param = g.nodes[w];
      const std::vector<int>& wids = l.slices.at(w);
      for (size_t i = 0; i < split.slices.size(); ++i) {
        models::Node& n = l.graph.nodes[wids[i]] = param;
        n.name = fmt::format("{}#{}", param.name, i);
        n.param_bytes = param.param_bytes * ratio(models::shape_weight_bytes(infos[i].shape, g.dtype), whole,
                                                  split.slices[i].share * split.slices[i].inner_share);
      }
    }
  }
  return l;
}

// Which plan collectives each node is `after` and `before` of, to find joins without scanning
// every collective's lists per edge (a tensor-parallel plan on many GPUs has thousands of each).
struct JoinIndex {
  std::map<int, std::vector<int>> after, before;  // node -> collective indices, ascending
  explicit JoinIndex(const std::vector<PlanCollective>& cs) {
    for (size_t c = 0; c < cs.size(); ++c) {
      for (int n : cs[c].after) after[n].push_back(static_cast<int>(c));
      for (int n : cs[c].before) before[n].push_back(static_cast<int>(c));
    }
  }
  // The first collective after a node of `from` and before a node of `to`, or -1.
  int join(const std::vector<int>& from, const std::vector<int>& to) const {
    std::vector<int> a, b;
    for (int n : from)
      if (auto it = after.find(n); it != after.end()) a.insert(a.end(), it->second.begin(), it->second.end());
    for (int n : to)
      if (auto it = before.find(n); it != before.end()) b.insert(b.end(), it->second.begin(), it->second.end());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::vector<int> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    return both.empty() ? -1 : both.front();
  }
};

// The levels of a split that divide anything (a level where every slice has share 1, such as a
// one-group 2D split's columns, is the whole op), each with its slices' shares.
struct Level {
  models::Part input, output;
  std::vector<double> shares;
};
std::vector<Level> dividing_levels(const PlanSplit& split, const std::vector<SliceInfo>& info) {
  std::vector<Level> out;
  for (size_t l = 0; l < info.front().levels.size(); ++l) {
    Level level{info.front().levels[l].input, info.front().levels[l].output, {}};
    for (const PlanSlice& s : split.slices) level.shares.push_back(l == 0 ? s.share : s.inner_share);
    if (std::any_of(level.shares.begin(), level.shares.end(), [](double x) { return x != 1; })) out.push_back(level);
  }
  return out;
}

// Consumer `v` reads exactly what each slice of `u` makes, where it is made: the same devices,
// at every dividing level of the producer the producer's output part is the consumer's input
// part (features, tokens, batch) with the same shares, and at any further level of the consumer
// it reads its input whole (a data-parallel replica's norm, copied on its group, into its
// column-split linear).
bool aligned(const PlanSplit& u, const std::vector<SliceInfo>& ui, const PlanSplit* v, const std::vector<SliceInfo>* vi) {
  if (!v || u.slices.size() != v->slices.size()) return false;
  for (size_t i = 0; i < u.slices.size(); ++i)
    if (u.slices[i].device != v->slices[i].device) return false;
  const std::vector<Level> a = dividing_levels(u, ui), b = dividing_levels(*v, *vi);
  if (a.empty() || a.size() > b.size()) return false;
  for (size_t l = 0; l < a.size(); ++l) {
    if (a[l].output != b[l].input || a[l].output == Part::Whole || a[l].output == Part::Partial) return false;
    for (size_t i = 0; i < a[l].shares.size(); ++i)
      if (std::abs(a[l].shares[i] - b[l].shares[i]) > 1e-12) return false;
  }
  for (size_t l = a.size(); l < b.size(); ++l)
    if (b[l].input != Part::Whole) return false;
  return true;
}

}  // namespace

models::Graph slice_nodes(const models::Graph& g, const std::map<int, PlanSplit>& splits) {
  models::Graph nodes = std::move(layout(g, splits).graph);
  nodes.validate_nodes();  // its names hashed: a plan names thousands of them
  return nodes;
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
    const SliceInfo first = slice_info(g.nodes[op].shape, split, split.slices.front());
    for (int w : partitioned_params(g, op, first)) number(w, split.slices.size());
  }
  return ids;
}

std::vector<int> original_nodes(const models::Graph& g, const std::map<int, PlanSplit>& splits) {
  const std::map<int, std::vector<int>> ids = slice_ids(g, splits);
  size_t nodes = g.nodes.size();
  for (const auto& [node, slices] : ids) nodes += slices.size() - 1;
  std::vector<int> of(nodes);
  std::iota(of.begin(), of.end(), 0);
  for (const auto& [node, slices] : ids)
    for (int s : slices) of[s] = node;
  return of;
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
  const JoinIndex joins(plan.collectives);
  // The device a consumer (slice) runs on, where the plan already says.
  auto device_of = [&](const PlanSplit* v, size_t j, int node) {
    if (v) return v->slices[j].device;
    return node < static_cast<int>(plan.device_of.size()) ? plan.device_of[node] : -1;
  };
  for (const models::Edge& e : g.edges) {
    const auto su = plan.splits.find(e.src);
    const auto sv = plan.splits.find(e.dst);
    const PlanSplit* v = sv == plan.splits.end() ? nullptr : &sv->second;
    const std::vector<SliceInfo>* vi = v ? &l.info.at(e.dst) : nullptr;
    auto reads = [&](size_t j) { return vi ? (*vi)[j].reads : 1.0; };  // what consumer slice j reads of its input
    const std::vector<int> to = ids(e.dst);
    if (g.nodes[e.src].kind == NodeKind::Param) {
      if (l.slices.count(e.src)) {
        if (g.out_edges(e.src).size() != 1)
          throw InputError(e.loc, fmt::format("parameter '{}' is read by split op '{}' and by other ops: a {} split "
                                              "partitions it, so it cannot be shared",
                                              g.nodes[e.src].name, g.nodes[e.dst].name, to_string(v->axis)));
        const std::vector<int> from = ids(e.src);
        const double whole = g.nodes[e.src].param_bytes;
        for (size_t j = 0; j < to.size(); ++j)
          add(e, from[j], to[j], whole > 0 ? out.nodes[from[j]].param_bytes / whole : v->slices[j].share);
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
    const std::vector<SliceInfo>& ui = l.info.at(e.src);
    const std::vector<int> from = ids(e.src);
    if (u.axis == models::Axis::Replicas) {  // each consumer (slice) reads the replica on its device, else the first
      for (size_t j = 0; j < to.size(); ++j) {
        const int dev = device_of(v, j, e.dst);
        size_t i = 0;
        while (i < u.slices.size() && u.slices[i].device != dev) ++i;
        add(e, from[i < u.slices.size() ? i : 0], to[j], reads(j));
      }
      continue;
    }
    if (aligned(u, ui, v, vi)) {
      for (size_t i = 0; i < from.size(); ++i) add(e, from[i], to[i], ui[i].makes);
      continue;
    }
    const std::vector<Level> levels = dividing_levels(u, ui);
    const bool partial =
        std::any_of(levels.begin(), levels.end(), [](const Level& x) { return x.output == Part::Partial; });
    const std::string& un = g.nodes[e.src].name;
    const std::string& vn = g.nodes[e.dst].name;
    if (const int j = joins.join(from, to); j >= 0) {
      const PlanCollective* c = &plan.collectives[j];
      if (partial && c->op != engine::CollectiveOp::AllReduce && c->op != engine::CollectiveOp::ReduceScatter)
        throw InputError(e.loc, fmt::format("collective '{}' joins row-split '{}' for '{}' by {}, but its slices hold "
                                            "partial sums: they need a reduce (all-reduce or reduce-scatter)",
                                            c->name, un, vn, engine::to_string(c->op)));
      continue;
    }
    if (partial)
      throw InputError(e.loc, fmt::format("op '{}' reads the partial sums of row-split '{}' with no reduce to join them "
                                          "(add an all-reduce or reduce-scatter with after: [{}] and before: [{}])",
                                          vn, un, un, vn));
    // Each part of the producer once: with inner replicas, from its copy on the consumer
    // slice's device, else from its first copy.
    const size_t copies = static_cast<size_t>(u.copies());
    auto source = [&](size_t i, size_t j) {
      const size_t first = i - i % copies;
      for (size_t c = first; c < first + copies; ++c)
        if (u.slices[c].device == device_of(v, j, e.dst)) return c;
      return first;
    };
    for (size_t i = 0; i < from.size(); ++i)
      for (size_t j = 0; j < to.size(); ++j)
        if (source(i, j) == i) add(e, from[i], to[j], ui[i].makes * reads(j));
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

std::vector<int> plan_order(const models::Graph& sliced, const std::vector<PlanCollective>& collectives,
                            const std::map<int, std::vector<int>>& slices) {
  // Nodes, then one vertex per collective: after -> collective -> before.
  const int n = static_cast<int>(sliced.nodes.size());
  const int total = n + static_cast<int>(collectives.size());
  std::vector<std::vector<int>> next(total);
  std::vector<int> indegree(total, 0);
  auto link = [&](int a, int b) {
    next[a].push_back(b);
    ++indegree[b];
  };
  for (const models::Edge& e : sliced.edges) link(e.src, e.dst);
  for (size_t c = 0; c < collectives.size(); ++c) {
    const int v = n + static_cast<int>(c);
    for (int a : collectives[c].after) link(a, v);
    for (int b : collectives[c].before) link(v, b);
  }
  // Kahn's algorithm, among the ready the one whose op comes first in the graph (a slice by the
  // op it is a slice of), then the smallest index: deterministic, the graph's own order where the
  // collectives add nothing, and an op's slices together.
  std::vector<int> op_of(total);
  for (int v = 0; v < total; ++v) op_of[v] = v;
  for (auto& [op, ids] : slices)
    for (int v : ids) op_of[v] = op;
  using Key = std::pair<int, int>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  for (int v = 0; v < total; ++v)
    if (indegree[v] == 0) ready.push({op_of[v], v});
  std::vector<int> order;
  int seen = 0;
  while (!ready.empty()) {
    const int v = ready.top().second;
    ready.pop();
    ++seen;
    if (v < n && sliced.nodes[v].kind == NodeKind::Op) order.push_back(v);
    for (int w : next[v])
      if (--indegree[w] == 0) ready.push({op_of[w], w});
  }
  if (seen != total) throw InputError("the plan's collectives make a cycle: an op waits for a collective that waits for it");
  return order;
}

}  // namespace placesim::scheduler
