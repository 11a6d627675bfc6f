#include "scheduler/placers/list_schedule.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>

#include "hw/route_cost.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/names.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler {

CommModel::CommModel(const Problem& p) : p_(&p), index_(p.topo->devices.size(), -1) {
  const hw::Topology& topo = *p.topo;
  const std::vector<int> devs = topo.compute_devices();
  for (size_t i = 0; i < devs.size(); ++i) index_[devs[i]] = static_cast<int>(i);
  const size_t n = n_ = devs.size();
  latency_.assign(n * n, 0.0);
  inv_bw_.assign(n * n, 0.0);
  if (topo.network_ideal) return;
  int pairs = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (i == j || !topo.connected(devs[i], devs[j])) continue;
      const hw::Route r = topo.route_once(devs[i], devs[j]);  // each pair once: not kept
      latency_[i * n + j] = r.latency_s;
      inv_bw_[i * n + j] = 1.0 / hw::route_bandwidth(topo, r);
      mean_latency_ += latency_[i * n + j];
      mean_inv_bw_ += inv_bw_[i * n + j];
      ++pairs;
    }
  if (pairs > 0) mean_latency_ /= pairs, mean_inv_bw_ /= pairs;
}

CommModel::Outbound CommModel::outbound(int e, int a) const {
  const models::Edge& edge = p_->graph->edges[e];
  Outbound o;
  o.from = a;
  o.fixed = edge.time_s || p_->topo->network_ideal;
  o.time = edge.time_s.value_or(0.0);
  o.bytes = edge.bytes;
  if (!o.fixed) o.row = static_cast<size_t>(index_[a]) * n_;
  return o;
}

double CommModel::mean_edge_time(int e) const {
  const models::Edge& edge = p_->graph->edges[e];
  if (edge.time_s) return *edge.time_s;
  if (p_->topo->network_ideal) return 0;
  return mean_latency_ + edge.bytes * mean_inv_bw_;
}

std::vector<int> Schedule::order(const models::Graph& g) const {
  std::vector<int> pos(g.nodes.size(), 0);
  const std::vector<int>& topo = g.topo_order();
  for (size_t k = 0; k < topo.size(); ++k) pos[topo[k]] = static_cast<int>(k);
  std::vector<int> ops = g.ops();
  std::sort(ops.begin(), ops.end(), [&](int a, int b) {
    if (start[a] != start[b]) return start[a] < start[b];
    return pos[a] < pos[b];
  });
  return ops;
}

Schedule::Schedule(const Problem& p)
    : device_of(p.graph->nodes.size(), -1), start(p.graph->nodes.size(), 0.0), finish(p.graph->nodes.size(), 0.0),
      copies(p), dispatch(p) {}

void Schedule::place(int op, int dev, double s, double f, int thread) {
  copies.book(op, dev);
  dispatch.book(thread, op, dev, f);
  device_of[op] = dev;
  start[op] = s;
  finish[op] = f;
  makespan = std::max(makespan, f);
}

void InputArrivals::gather(const Schedule& s, int op) {
  const models::Graph& g = *p_->graph;
  s_ = &s;
  op_ = op;
  inputs_.clear();
  latest_end_ = 0;
  for (int e : g.in_edges(op)) {
    const int u = g.edges[e].src;
    if (s.device_of[u] < 0) continue;  // a parameter (every producing op is placed by now)
    inputs_.push_back({s.finish[u], comm_->outbound(e, s.device_of[u])});
    latest_end_ = std::max(latest_end_, s.finish[u]);
  }
}

double InputArrivals::on(int dev) const {
  double ready = s_->copies.arrival(op_, dev);
  for (const Input& in : inputs_) ready = std::max(ready, in.end + comm_->time_to(in.route, dev));
  return ready;
}

Schedule schedule_in_order(const Problem& p, const CommModel& comm, const std::vector<int>& device_of,
                           const std::vector<int>& order) {
  Schedule s(p);
  InputArrivals inputs(p, comm);
  std::vector<double> avail(p.topo->devices.size(), 0.0);
  for (int op : order) {
    const int dev = device_of[op];
    inputs.gather(s, op);
    const double start = std::max({avail[dev], inputs.on(dev), s.dispatch.ready(0, dev)});
    avail[dev] = start + p.duration(op, dev);
    s.place(op, dev, start, avail[dev]);
  }
  return s;
}

EtfResult etf_schedule(const Problem& p, const CommModel& comm, const std::vector<double>& rank,
                       const std::vector<std::vector<int>>& groups, const std::vector<int>& group_of,
                       const std::vector<int>& favourite) {
  const models::Graph& g = *p.graph;
  MemoryBook book(p);
  EtfResult r{Schedule(p), -1};
  Schedule& s = r.schedule;
  std::vector<double> avail(p.topo->devices.size(), 0.0);
  std::vector<int> kept_for(p.topo->devices.size(), -1);  // m-SCT: the favourite child a device waits for
  std::vector<int> missing(g.nodes.size(), 0);
  std::vector<int> ready;
  for (int op : g.ops()) {
    for (int e : g.in_edges(op)) missing[op] += g.nodes[g.edges[e].src].kind == models::NodeKind::Op;
    if (missing[op] == 0) ready.push_back(op);
  }
  InputArrivals inputs(p, comm), favourite_inputs(p, comm);
  const auto favourite_ready = [&](int f, int d) {
    favourite_inputs.gather(s, f);
    return favourite_inputs.on(d);
  };
  while (!ready.empty()) {
    int best_op = -1, best_dev = -1;
    double best_est = 0;
    for (int v : ready) {
      inputs.gather(s, v);
      for (int d : groups[group_of[v]]) {
        const double w = p.duration(v, d);
        if (w == models::kCannotRun || !book.fits(v, d)) continue;
        const double est = std::max({avail[d], inputs.on(d), s.dispatch.ready(0, d)});
        const int f = kept_for[d];
        if (f >= 0 && f != v && s.device_of[f] < 0 && missing[f] == 0 && book.fits(f, d) &&
            p.duration(f, d) != models::kCannotRun &&
            est + w > std::max(avail[d], favourite_ready(f, d)))
          continue;
        const bool better = best_op < 0 || est < best_est ||
                            (est == best_est && (rank[v] > rank[best_op] || (rank[v] == rank[best_op] && v < best_op)));
        if (better) best_op = v, best_dev = d, best_est = est;
      }
    }
    if (best_op < 0) {
      r.stuck = *std::min_element(ready.begin(), ready.end());
      return r;
    }
    const double finish = best_est + p.duration(best_op, best_dev);
    book.add(best_op, best_dev);
    s.place(best_op, best_dev, best_est, finish);
    avail[best_dev] = finish;
    kept_for[best_dev] = favourite[best_op];
    ready.erase(std::find(ready.begin(), ready.end(), best_op));
    for (int e : g.out_edges(best_op)) {
      const int c = g.edges[e].dst;
      if (g.nodes[c].kind == models::NodeKind::Op && --missing[c] == 0) ready.push_back(c);
    }
  }
  return r;
}

Plan scheduled_plan(const Problem& p, std::string placer, const Schedule& s, const BuildOptions& opts) {
  BuildOptions o = opts;
  o.delivery_queues = true;
  o.copies = s.copies.plan_copies();
  o.dispatch = s.dispatch.orders();
  return build_plan(p, std::move(placer), s.device_of, s.order(*p.graph), o);
}

double contention_free_makespan(const Problem& p, const Plan& plan) {
  const engine::TaskGraph tg = lower(p, plan).graph;
  const size_t n = tg.tasks.size();
  std::vector<std::vector<engine::TaskId>> next(n);  // dependants, and each task's queue successor
  std::vector<int> waiting(n, 0);
  for (size_t t = 0; t < n; ++t)
    for (engine::TaskId d : tg.tasks[t].deps) next[d].push_back(static_cast<engine::TaskId>(t)), ++waiting[t];
  const std::vector<engine::TaskId> pred = tg.queue_predecessors();
  for (size_t t = 0; t < n; ++t)
    if (pred[t] >= 0) next[pred[t]].push_back(static_cast<engine::TaskId>(t)), ++waiting[t];
  std::vector<TimePs> ready(n, 0);
  std::vector<engine::TaskId> todo;
  for (size_t t = 0; t < n; ++t)
    if (waiting[t] == 0) todo.push_back(static_cast<engine::TaskId>(t));
  TimePs makespan = 0;
  while (!todo.empty()) {
    const engine::TaskId t = todo.back();
    todo.pop_back();
    const engine::Task& task = tg.tasks[t];
    double dur = 0;
    for (const engine::Use& u : task.uses) dur = std::max(dur, u.amount / tg.resources[u.resource].capacity);
    if (const double cap = tg.rate_cap(t); !task.uses.empty() && cap != engine::kUnbounded) dur = std::max(dur, 1 / cap);
    const TimePs end = add_ps(add_ps(ready[t], task.latency), ceil_ps(dur));
    makespan = std::max(makespan, end);
    for (engine::TaskId s : next[t]) {
      ready[s] = std::max(ready[s], end);
      if (--waiting[s] == 0) todo.push_back(s);
    }
  }
  return to_seconds(makespan);
}

MemoryBook::MemoryBook(const Problem& p)
    : p_(&p), used_(p.topo->devices.size(), 0.0), capacity_(p.topo->devices.size(), 0.0),
      has_param_(p.topo->devices.size()) {
  const hw::Topology& topo = *p.topo;
  for (size_t d = 0; d < topo.devices.size(); ++d) {
    int mem = static_cast<int>(d);
    if (topo.devices[d].kind == hw::DeviceKind::Cpu) mem = topo.host_memory_for(mem);
    capacity_[d] = mem < 0 ? 0.0 : topo.devices[mem].memory;
  }
}

double MemoryBook::need(int op, int dev) const {
  const models::Graph& g = *p_->graph;
  double bytes = g.nodes[op].output_bytes + g.nodes[op].state_bytes;
  const std::vector<bool>& has = has_param_[dev];
  for (int e : g.in_edges(op)) {
    const int w = g.edges[e].src;
    if (g.nodes[w].kind == models::NodeKind::Param && (has.empty() || !has[w])) bytes += g.nodes[w].param_bytes;
  }
  return bytes;
}

bool MemoryBook::fits(int op, int dev) const {
  return capacity_[dev] <= 0 || used_[dev] + need(op, dev) <= capacity_[dev];
}

void MemoryBook::add(int op, int dev) {
  const models::Graph& g = *p_->graph;
  used_[dev] += need(op, dev);
  std::vector<bool>& has = has_param_[dev];
  if (has.empty()) has.assign(g.nodes.size(), false);
  for (int e : g.in_edges(op))
    if (g.nodes[g.edges[e].src].kind == models::NodeKind::Param) has[g.edges[e].src] = true;
}

double mean_duration(const Problem& p, int op, const std::vector<int>& devices) {
  double sum = 0;
  int n = 0;
  for (int d : devices) {
    const double t = p.duration(op, d);
    if (t == models::kCannotRun) continue;
    sum += t;
    ++n;
  }
  if (n == 0) throw InputError(fmt::format("op '{}' cannot run on any device the placer uses", p.graph->nodes[op].name));
  return sum / n;
}

std::vector<double> upward_rank(const Problem& p, const CommModel& comm, const std::vector<int>& devices) {
  const models::Graph& g = *p.graph;
  std::vector<double> rank(g.nodes.size(), 0.0);
  const std::vector<int>& topo = g.topo_order();
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    const int v = *it;
    if (g.nodes[v].kind != models::NodeKind::Op) continue;
    double tail = 0;
    for (int e : g.out_edges(v)) {
      const int s = g.edges[e].dst;
      if (g.nodes[s].kind == models::NodeKind::Op) tail = std::max(tail, comm.mean_edge_time(e) + rank[s]);
    }
    rank[v] = mean_duration(p, v, devices) + tail;
  }
  return rank;
}

}  // namespace placesim::scheduler
