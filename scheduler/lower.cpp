#include "scheduler/lower.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace {

using models::NodeKind;

struct Lowering {
  const Problem& p;
  const Plan& plan;
  const models::Graph& g;
  const hw::Topology& topo;
  Lowered out;
  std::vector<engine::ResourceId> device_resource;  // per device, -1 when it does not compute
  std::vector<engine::ResourceId> link_resource;    // per link: forward id; backward = id + 1
  std::vector<engine::PoolId> device_pool;          // per device, -1 when untracked
  std::vector<engine::TaskId> compute;              // per node
  std::map<std::pair<int, int>, engine::TaskId> deliver;  // (node, device) -> task
  std::set<std::pair<int, int>> resident_params;          // (param, device), weights: resident

  Lowering(const Problem& prob, const Plan& pl)
      : p(prob), plan(pl), g(*prob.graph), topo(*prob.topo) {}

  void add_resources() {
    engine::TaskGraph& tg = out.graph;
    device_resource.assign(topo.devices.size(), -1);
    for (size_t d = 0; d < topo.devices.size(); ++d) {
      const hw::Device& dev = topo.devices[d];
      if (!dev.is_compute()) continue;
      device_resource[d] = tg.add_resource(dev.id, 1.0, !dev.concurrent_kernels);
      out.resource_link.push_back(-1);
    }
    link_resource.assign(topo.links.size(), -1);
    if (topo.network_ideal) return;
    for (size_t l = 0; l < topo.links.size(); ++l) {
      const hw::Link& k = topo.links[l];
      const std::string& a = topo.devices[k.a].id;
      const std::string& b = topo.devices[k.b].id;
      link_resource[l] = tg.add_resource(fmt::format("{}:{}->{}", k.id, a, b), k.bw_ab);
      tg.add_resource(fmt::format("{}:{}->{}", k.id, b, a), k.bw_ba);
      out.resource_link.push_back(static_cast<int>(l));
      out.resource_link.push_back(static_cast<int>(l));
    }
  }

  void add_pools() {
    device_pool.assign(topo.devices.size(), -1);
    for (size_t d = 0; d < topo.devices.size(); ++d) {
      const hw::Device& dev = topo.devices[d];
      const bool holds = dev.kind == hw::DeviceKind::Gpu || dev.kind == hw::DeviceKind::HostMemory;
      if (!holds || dev.memory <= 0) continue;
      device_pool[d] = out.graph.add_pool(dev.id + ".mem", dev.memory);
      out.pool_device.push_back(static_cast<int>(d));
    }
  }

  // The pool an op's data lives in on device `d`: its own, or a CPU's nearest host memory.
  engine::PoolId pool_of(int d) const {
    if (topo.devices[d].kind == hw::DeviceKind::Cpu) {
      const int h = topo.host_memory_for(d);
      return h < 0 ? -1 : device_pool[h];
    }
    return device_pool[d];
  }

  // Where node `n`'s data comes from when delivered to `dev`.
  int source_of(int n, int dev) const {
    if (g.nodes[n].kind == NodeKind::Param) {
      const int h = topo.host_memory_for(dev);
      if (h < 0) throw InputError(fmt::format("weights: host, but '{}' has no host memory", topo.name));
      return h;
    }
    return plan.device_of[n];
  }

  std::string item_name(const PlanItem& it) const {
    return it.kind == PlanItem::Kind::Compute ? g.nodes[it.node].name
                                              : g.nodes[it.node].name + "@" + topo.devices[it.device].id;
  }

  void add_tasks() {
    engine::TaskGraph& tg = out.graph;
    compute.assign(g.nodes.size(), -1);
    for (const PlanQueue& q : plan.queues) {
      const engine::QueueId qid = tg.add_queue(q.name);
      for (const PlanItem& it : q.items) {
        engine::Task t;
        t.name = item_name(it);
        t.queue = qid;
        t.op = it.node;
        const engine::TaskId id = static_cast<engine::TaskId>(tg.tasks.size());
        if (it.kind == PlanItem::Kind::Compute) {
          if (compute[it.node] >= 0) throw InputError(fmt::format("plan computes op '{}' twice", t.name));
          compute[it.node] = id;
          fill_compute(t, it.node);
        } else {
          if (!deliver.emplace(std::make_pair(it.node, it.device), id).second)
            throw InputError(fmt::format("plan delivers '{}' twice", t.name));
          fill_delivery(t, it.node, it.device);
        }
        tg.add_task(std::move(t));
      }
    }
    for (int n : g.ops())
      if (compute[n] < 0) throw InputError(fmt::format("plan never computes op '{}'", g.nodes[n].name));
  }

  void fill_compute(engine::Task& t, int n) {
    const int dev = plan.device_of[n];
    if (dev < 0) throw InputError(fmt::format("plan puts op '{}' on no device", g.nodes[n].name));
    const double d = p.duration(n, dev);
    if (d == models::kCannotRun)
      throw InputError(fmt::format("op '{}' cannot run on '{}'", g.nodes[n].name, topo.devices[dev].id));
    t.kind = engine::TaskKind::Compute;
    if (d > 0) t.uses.push_back({device_resource[dev], d});
  }

  void fill_delivery(engine::Task& t, int n, int dev) {
    const bool param = g.nodes[n].kind == NodeKind::Param;
    if (param && p.weights == WeightsMode::Resident)
      throw InputError(fmt::format("plan copies '{}', but weights are resident", t.name));
    if (!param && plan.device_of[n] == dev)
      throw InputError(fmt::format("plan delivers '{}' to the device that produced it", t.name));
    // The edges this delivery serves: a fixed time wins over bytes (the largest of each).
    double bytes = 0, fixed = -1;
    for (int e : g.out_edges(n)) {
      const models::Edge& edge = g.edges[e];
      if (g.nodes[edge.dst].kind != NodeKind::Op || plan.device_of[edge.dst] != dev) continue;
      bytes = std::max(bytes, edge.bytes);
      if (edge.time_s) fixed = std::max(fixed, *edge.time_s);
    }
    t.kind = engine::TaskKind::Transfer;
    if (fixed >= 0) {
      t.latency = ceil_ps(fixed);
      return;
    }
    t.bytes = bytes;
    if (topo.network_ideal) return;
    const hw::Route& r = topo.route(source_of(n, dev), dev);
    t.latency = ceil_ps(r.latency_s);
    if (bytes > 0)
      for (const hw::Hop& h : r.hops) t.uses.push_back({link_resource[h.link] + (h.forward ? 0 : 1), bytes});
  }

  engine::TaskId needed_delivery(int src, int dst_op) const {
    const int dev = plan.device_of[dst_op];
    auto it = deliver.find({src, dev});
    if (it == deliver.end())
      throw InputError(fmt::format("plan has no delivery '{}@{}' needed by op '{}'", g.nodes[src].name,
                                   topo.devices[dev].id, g.nodes[dst_op].name));
    return it->second;
  }

  void add_dependencies() {
    engine::TaskGraph& tg = out.graph;
    for (int n : g.ops()) {
      std::vector<engine::TaskId>& deps = tg.tasks[compute[n]].deps;
      for (int e : g.in_edges(n)) {
        const int src = g.edges[e].src;
        if (g.nodes[src].kind == NodeKind::Param) {
          if (p.weights == WeightsMode::Host) deps.push_back(needed_delivery(src, n));
        } else if (plan.device_of[src] == plan.device_of[n]) {
          deps.push_back(compute[src]);
        } else {
          deps.push_back(needed_delivery(src, n));
        }
      }
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    }
    for (auto& [key, id] : deliver)
      if (g.nodes[key.first].kind == NodeKind::Op) tg.tasks[id].deps.push_back(compute[key.first]);
  }

  void add_buffer(const std::string& name, engine::PoolId pool, double bytes, engine::TaskId alloc, bool at_end,
                  std::vector<engine::TaskId> free_after) {
    if (pool < 0 || bytes <= 0) return;
    out.graph.add_buffer({name, pool, bytes, alloc, at_end, std::move(free_after)});
  }

  // Consumers of node n's data on device dev: compute tasks there and deliveries out of it.
  std::vector<engine::TaskId> users_on(int n, int dev) const {
    std::vector<engine::TaskId> users;
    for (int e : g.out_edges(n)) {
      const int dst = g.edges[e].dst;
      if (g.nodes[dst].kind == NodeKind::Op && plan.device_of[dst] == dev) users.push_back(compute[dst]);
    }
    if (g.nodes[n].kind == NodeKind::Op && plan.device_of[n] == dev)
      for (auto& [key, id] : deliver)
        if (key.first == n) users.push_back(id);
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    return users;
  }

  void add_memory() {
    for (int n : g.ops()) {
      const models::Node& node = g.nodes[n];
      const int dev = plan.device_of[n];
      add_buffer(node.name + ".state", pool_of(dev), node.state_bytes, -1, false, {});
      std::vector<engine::TaskId> users = users_on(n, dev);
      if (users.empty()) users.push_back(compute[n]);
      add_buffer(node.name + ".out", pool_of(dev), node.output_bytes, compute[n], false, users);
      if (p.weights == WeightsMode::Resident)
        for (int e : g.in_edges(n)) {
          const int src = g.edges[e].src;
          if (g.nodes[src].kind != NodeKind::Param) continue;
          resident_params.emplace(src, dev);
        }
    }
    for (auto [param, dev] : resident_params)
      add_buffer(g.nodes[param].name + "@" + topo.devices[dev].id, pool_of(dev), g.nodes[param].param_bytes, -1,
                 false, {});
    for (auto& [key, id] : deliver) {
      const auto [n, dev] = key;
      const std::string name = g.nodes[n].name + "@" + topo.devices[dev].id;
      if (g.nodes[n].kind == NodeKind::Param) {
        add_buffer(name, pool_of(dev), g.nodes[n].param_bytes, id, true, {});
      } else {
        std::vector<engine::TaskId> users = users_on(n, dev);
        if (users.empty()) users.push_back(id);
        add_buffer(name, pool_of(dev), out.graph.tasks[id].bytes, id, false, users);
      }
    }
  }
};

}  // namespace

Lowered lower(const Problem& p, const Plan& plan) {
  PLACESIM_ASSERT(plan.device_of.size() == p.graph->nodes.size(), "plan does not match the graph");
  Lowering l(p, plan);
  l.add_resources();
  l.add_pools();
  l.add_tasks();
  l.add_dependencies();
  l.add_memory();
  l.out.graph.validate();
  return std::move(l.out);
}

MemoryCheck check_memory(const Problem& p, const Lowered& l, const engine::Trace& t) {
  MemoryCheck c;
  for (size_t i = 0; i < l.pool_device.size(); ++i) {
    const hw::Device& dev = p.topo->devices[l.pool_device[i]];
    const double peak = i < t.peak_memory.size() ? t.peak_memory[i] : 0.0;
    c.peak.emplace_back(dev.id, peak);
    if (c.over_device.empty() && peak > dev.memory) {
      c.over_device = dev.id;
      c.over_bytes = peak;
      c.capacity = dev.memory;
    }
  }
  return c;
}

}  // namespace placesim::scheduler
