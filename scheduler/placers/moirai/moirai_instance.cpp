#include "scheduler/placers/moirai/moirai_instance.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <queue>
#include <tuple>

#include "models/transform/fusion.hpp"
#include "scheduler/placers/list_schedule.hpp"

namespace placesim::scheduler::moirai {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

Coarse coarse_tasks(const Problem& p, const std::vector<models::FusionRule>& rules) {
  const models::Graph& g = *p.graph;
  Coarse c;
  std::vector<int> group_of(g.nodes.size());
  if (!rules.empty()) {
    models::Coarsened cg = models::coarsen(g, rules);
    c.graph = std::move(cg.graph);
    group_of = std::move(cg.group_of);
  } else {
    c.graph = g;
    for (size_t v = 0; v < g.nodes.size(); ++v) group_of[v] = static_cast<int>(v);
  }
  std::vector<int> task_of_node(c.graph.nodes.size(), -1);
  for (int n : c.graph.ops()) {
    task_of_node[n] = static_cast<int>(c.node_of.size());
    c.node_of.push_back(n);
    c.order.push_back(task_of_node[n]);
  }
  c.members.resize(c.node_of.size());
  c.task_of.assign(g.nodes.size(), -1);
  for (int v : g.topo_order()) {
    if (g.nodes[v].kind != models::NodeKind::Op) continue;
    c.task_of[v] = task_of_node[group_of[v]];
    c.members[c.task_of[v]].push_back(v);
  }
  for (const std::vector<int>& m : c.members) {
    bool somewhere = false;
    for (int d : p.topo->compute_devices()) {
      bool all = true;
      for (int v : m) all = all && p.duration(v, d) != models::kCannotRun;
      somewhere = somewhere || all;
    }
    if (!somewhere)
      throw InputError(fmt::format("milp-moirai: no device can run every op of the fused group '{}' (set coarsen: false)",
                                   c.graph.nodes[c.node_of[c.task_of[m.front()]]].name));
  }
  return c;
}

std::vector<std::vector<bool>> Instance::reach() const {
  const int n = tasks();
  std::vector<std::vector<int>> succ(n);
  for (const Flow& f : flows) succ[f.src].push_back(f.dst);
  std::vector<std::vector<bool>> r(n, std::vector<bool>(n, false));
  for (int i = n - 1; i >= 0; --i)  // flows go from lower to higher tasks
    for (int j : succ[i]) {
      r[i][j] = true;
      for (int k = j + 1; k < n; ++k)
        if (r[j][k]) r[i][k] = true;
    }
  return r;
}

Placed::Placed(const Problem& p, const Coarse& c, int slots)
    : slot(c.members.size(), -1), start(c.members.size(), 0.0), device_avail(slots, 0.0),
      channel_avail(slots, std::vector<double>(slots, 0.0)), mem_used(slots, 0.0),
      param_resident(p.graph->nodes.size(), std::vector<bool>(slots, false)) {}

Instance make_instance(const Problem& p, const Coarse& c, const std::vector<int>& devices,
                       const std::vector<int>& window, const Placed& placed) {
  const models::Graph& g = *p.graph;
  const int K = static_cast<int>(devices.size());
  const CommModel comm(p);
  const MemoryBook book(p);
  Instance in;
  in.slots = K;
  in.capacity.resize(K);
  for (int k = 0; k < K; ++k) {
    const double cap = book.capacity(devices[k]);
    in.capacity[k] = cap > 0 ? cap - placed.mem_used[k] : kInf;
  }
  in.device_avail = placed.device_avail;
  in.channel_avail = placed.channel_avail;

  // Fixed producers first (in their placement order), then the window: flows then go from
  // lower to higher tasks.
  std::vector<int> index(c.members.size(), -1);
  std::vector<bool> in_window(c.members.size(), false);
  for (int t : window) in_window[t] = true;
  std::vector<int> fixed;
  for (int t : c.order)
    if (!in_window[t] && placed.slot[t] >= 0) {
      bool feeds = false;
      for (int v : c.members[t])
        for (int e : g.out_edges(v))
          feeds = feeds || (g.nodes[g.edges[e].dst].kind == models::NodeKind::Op && in_window[c.task_of[g.edges[e].dst]]);
      if (feeds) fixed.push_back(t);
    }
  auto add_task = [&](int t) {
    index[t] = in.tasks();
    in.task.push_back(t);
    std::vector<double> d(K, 0.0);
    double bytes = 0;
    for (int v : c.members[t]) {
      for (int k = 0; k < K; ++k) d[k] += p.duration(v, devices[k]);
      bytes += g.nodes[v].output_bytes + g.nodes[v].state_bytes;
    }
    in.dur.push_back(d);
    in.own_bytes.push_back(bytes);
    const bool free = in_window[t];
    in.fixed_slot.push_back(free ? -1 : placed.slot[t]);
    in.fixed_start.push_back(free ? 0.0 : placed.start[t]);
  };
  for (int t : fixed) add_task(t);
  for (int t : window) add_task(t);

  // One flow per (producer task, consumer task) with graph edges between them; its time over
  // each channel is the longest of those edges' (the engine's delivery serves them all).
  std::map<std::pair<int, int>, std::vector<int>> edges;
  for (size_t e = 0; e < g.edges.size(); ++e) {
    const models::Edge& edge = g.edges[e];
    if (g.nodes[edge.src].kind != models::NodeKind::Op) continue;
    const int a = index[c.task_of[edge.src]], b = index[c.task_of[edge.dst]];
    if (a < 0 || b < 0 || a == b || in.fixed_slot[b] >= 0) continue;
    edges[{a, b}].push_back(static_cast<int>(e));
  }
  for (const auto& [ends, es] : edges) {
    Flow f{ends.first, ends.second, std::vector<std::vector<double>>(K, std::vector<double>(K, 0.0))};
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b) {
        if (a == b) continue;
        if (!p.topo->network_ideal && !p.topo->connected(devices[a], devices[b])) {
          f.time[a][b] = kInf;
          continue;
        }
        for (int e : es) f.time[a][b] = std::max(f.time[a][b], comm.edge_time(e, devices[a], devices[b]));
      }
    in.flows.push_back(std::move(f));
  }

  // Parameters read by the window's tasks (weights resident: each is held once on every device
  // that has a reader, for the whole run; MemoryBook's booking).
  std::map<int, int> param_index;
  for (int t : window)
    for (int v : c.members[t])
      for (int e : g.in_edges(v)) {
        const int w = g.edges[e].src;
        if (g.nodes[w].kind != models::NodeKind::Param) continue;
        auto [it, added] = param_index.try_emplace(w, static_cast<int>(in.params.size()));
        if (added) in.params.push_back({g.nodes[w].param_bytes, {}, placed.param_resident[w]});
        std::vector<int>& readers = in.params[it->second].readers;
        if (std::find(readers.begin(), readers.end(), index[t]) == readers.end()) readers.push_back(index[t]);
      }
  return in;
}

std::vector<int> global_order(const Instance& in, const std::vector<double>& task_key,
                              const std::vector<double>& flow_key) {
  const int n = in.tasks(), F = static_cast<int>(in.flows.size());
  std::vector<int> waiting(n + F, 0);
  std::vector<std::vector<int>> out(n);
  for (int q = 0; q < F; ++q) {
    out[in.flows[q].src].push_back(n + q);
    ++waiting[in.flows[q].dst];
    if (in.is_free(in.flows[q].src)) ++waiting[n + q];
  }
  auto key = [&](int v) { return v < n ? task_key[v] : flow_key[v - n]; };
  auto later = [&](int a, int b) { return std::make_pair(key(a), a) > std::make_pair(key(b), b); };
  std::priority_queue<int, std::vector<int>, decltype(later)> ready(later);
  for (int v = 0; v < n + F; ++v)
    if (waiting[v] == 0 && (v >= n || in.is_free(v))) ready.push(v);
  std::vector<int> order;
  while (!ready.empty()) {
    const int v = ready.top();
    ready.pop();
    order.push_back(v);
    if (v >= n) {
      if (--waiting[in.flows[v - n].dst] == 0) ready.push(in.flows[v - n].dst);
    } else {
      for (int w : out[v])
        if (--waiting[w] == 0) ready.push(w);
    }
  }
  return order;
}

Timed evaluate(const Instance& in, const std::vector<int>& slot_of, const std::vector<double>& task_key,
               const std::vector<double>& flow_key) {
  const int n = in.tasks(), F = static_cast<int>(in.flows.size());
  Timed t;
  t.start.assign(n, 0.0);
  t.finish.assign(n, 0.0);
  t.flow_start.assign(F, 0.0);
  t.flow_finish.assign(F, 0.0);
  std::vector<std::vector<int>> in_flows(n);
  for (int q = 0; q < F; ++q) in_flows[in.flows[q].dst].push_back(q);
  for (int i = 0; i < n; ++i)
    if (!in.is_free(i)) t.start[i] = in.fixed_start[i], t.finish[i] = in.fixed_start[i] + in.dur[i][in.fixed_slot[i]];
  // The transfer of producer i over channel (a, b): its start and the longest time it serves.
  std::map<std::tuple<int, int, int>, std::pair<double, double>> transfer;
  for (int q = 0; q < F; ++q) {
    const Flow& f = in.flows[q];
    const int a = slot_of[f.src], b = slot_of[f.dst];
    if (a == b) continue;
    auto [it, added] = transfer.try_emplace({f.src, a, b}, std::make_pair(-1.0, f.time[a][b]));
    if (!added) it->second.second = std::max(it->second.second, f.time[a][b]);
  }
  std::vector<double> device_free = in.device_avail;
  for (double a : in.device_avail) t.makespan = std::max(t.makespan, a);
  std::vector<std::vector<double>> channel_free = in.channel_avail;
  for (int v : global_order(in, task_key, flow_key)) {
    if (v < n) {
      const int k = slot_of[v];
      double s = device_free[k];
      for (int q : in_flows[v]) s = std::max(s, t.flow_finish[q]);
      t.start[v] = s;
      t.finish[v] = s + in.dur[v][k];
      device_free[k] = t.finish[v];
      t.makespan = std::max(t.makespan, t.finish[v]);
      continue;
    }
    const int q = v - n;
    const Flow& f = in.flows[q];
    const int a = slot_of[f.src], b = slot_of[f.dst];
    if (a == b) {
      t.flow_start[q] = t.flow_finish[q] = t.finish[f.src];
      continue;
    }
    auto& [start, longest] = transfer.at({f.src, a, b});
    if (start < 0) {
      start = std::max(t.finish[f.src], channel_free[a][b]);
      channel_free[a][b] = start + longest;
    }
    t.flow_start[q] = start;
    t.flow_finish[q] = start + f.time[a][b];
  }
  return t;
}

}  // namespace placesim::scheduler::moirai
