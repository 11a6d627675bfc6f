// lower()'s memory accounting (lower.hpp states the rules): which pool each byte lives in, and
// between which task events it is held.
#include <algorithm>
#include <set>

#include "scheduler/lower/lowering.hpp"

namespace placesim::scheduler {
namespace detail {

using models::NodeKind;
using Kind = PlanItem::Kind;

void Lowering::add_pools() {
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
engine::PoolId Lowering::pool_of(int d) const {
  if (topo.devices[d].kind == hw::DeviceKind::Cpu) {
    const int h = topo.host_memory_for(d);
    return h < 0 ? -1 : device_pool[h];
  }
  return device_pool[d];
}

// Consumers of node n's data on device dev: compute tasks there and deliveries out of it.
std::vector<engine::TaskId> Lowering::users_on(int n, int dev) const {
  std::vector<engine::TaskId> users;
  for (int e : g.out_edges(n)) {
    const int dst = g.edges[e].dst;
    if (g.nodes[dst].kind == NodeKind::Op && plan.device_of[dst] == dev) users.push_back(compute[dst]);
  }
  // `transfers` is ordered by (kind, node, device): each kind's transfers of n are one range.
  if (g.nodes[n].kind == NodeKind::Op && plan.device_of[n] == dev)
    for (Kind kind : {Kind::Compute, Kind::Deliver, Kind::Stage, Kind::Forward})
      for (auto it = transfers_from(kind, n, -1); it != transfers.end() && it->kind == kind && it->node == n; ++it)
        users.push_back(it->task);
  std::sort(users.begin(), users.end());
  users.erase(std::unique(users.begin(), users.end()), users.end());
  return users;
}

void Lowering::add_memory() {
  auto add = [&](const std::string& name, engine::PoolId pool, double bytes, engine::TaskId alloc, bool at_end,
                 std::vector<engine::TaskId> free_after) {
    if (pool < 0 || bytes <= 0) return;
    out.graph.add_buffer({name, pool, bytes, alloc, at_end, std::move(free_after)});
  };
  std::set<std::pair<int, int>> resident_params;  // (param, device), weights: resident
  for (int n : g.ops()) {
    const models::Node& node = g.nodes[n];
    const int dev = plan.device_of[n];
    add(node.name + ".state", pool_of(dev), node.state_bytes, -1, false, {});
    // Users are looked up only for a buffer there is (a 0-byte output of an op feeding
    // thousands, as a clock op starting flows, would scan its edges once per device).
    if (node.output_bytes > 0) {
      std::vector<engine::TaskId> users = users_on(n, dev);
      if (users.empty()) users.push_back(compute[n]);
      add(node.name + ".out", pool_of(dev), node.output_bytes, compute[n], false, users);
    }
    for (int e : g.in_edges(n)) {
      const int w = g.edges[e].src;
      if (g.nodes[w].kind != NodeKind::Param) continue;
      if (p.weights == WeightsMode::Resident || plan.delivery(w, dev).via == ParamDelivery::Via::Resident)
        resident_params.emplace(w, dev);
    }
  }
  for (auto& [key, d] : plan.params)
    if (d.via == ParamDelivery::Via::Resident) resident_params.insert(key);
  for (auto [param, dev] : resident_params)
    add(g.nodes[param].name + "@" + topo.devices[dev].id, pool_of(dev), g.nodes[param].param_bytes, -1, false, {});
  // Copied parameters (and each part of a parallel transmission) from arrival to the end, or
  // until their last reader there has ended when the plan evicts them; the staged part also on
  // the neighbour, from its arrival there until it has been forwarded.
  for (const Transfer& tr : transfers) {
    const auto [kind, n, dev, id] = tr;
    const PlanItem it{kind, n, dev};
    const std::string name(out.graph.name(id));  // the transfer's task is named for its item
    if (g.nodes[n].kind == NodeKind::Param) {
      const double bytes = g.nodes[n].param_bytes * share(it);
      if (kind == Kind::Stage)
        add(name, pool_of(plan.delivery(n, dev).neighbour), bytes, id, true, {find_transfer(Kind::Forward, n, dev)});
      else
        add(name, pool_of(dev), bytes, id, true, plan.delivery(n, dev).evict ? users_on(n, dev) : std::vector<engine::TaskId>{});
    } else if (out.graph.tasks[id].bytes > 0) {
      std::vector<engine::TaskId> users = users_on(n, dev);
      if (users.empty()) users.push_back(id);
      add(name, pool_of(dev), out.graph.tasks[id].bytes, id, false, users);
    }
  }
}

}  // namespace detail

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
