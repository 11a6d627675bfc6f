#include "scheduler/plan_builder.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace placesim::scheduler {

Plan build_plan(const Problem& p, std::string placer, std::vector<int> device_of, const std::vector<int>& order) {
  const models::Graph& g = *p.graph;
  const hw::Topology& topo = *p.topo;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == models::NodeKind::Param) device_of[i] = -1;

  // Global ordering key: op at position k gets 3k + 1; its parameter copies 3k; the delivery
  // of its output 3k + 2. Each task's dependencies thus have smaller keys.
  std::vector<long> pos(g.nodes.size(), -1);
  for (size_t k = 0; k < order.size(); ++k) pos[order[k]] = static_cast<long>(k);

  std::map<std::string, std::vector<std::pair<long, PlanItem>>> queues;
  std::vector<std::string> queue_order;  // first appearance, for a readable plan
  auto push = [&](const std::string& q, long key, PlanItem item) {
    if (!queues.count(q)) queue_order.push_back(q);
    queues[q].emplace_back(key, item);
  };

  for (int op : order) {
    const int dev = device_of[op];
    push(topo.devices[dev].id + ".compute", 3 * pos[op] + 1, {PlanItem::Kind::Compute, op, -1});
  }
  // Parameter copies: one per (parameter, device that reads it), before its first reader there.
  if (p.weights == WeightsMode::Host) {
    std::map<std::pair<int, int>, long> first_use;
    for (int op : order)
      for (int e : g.in_edges(op)) {
        const int src = g.edges[e].src;
        if (g.nodes[src].kind != models::NodeKind::Param) continue;
        auto key = std::make_pair(src, device_of[op]);
        if (!first_use.count(key)) first_use[key] = 3 * pos[op];
      }
    for (auto& [pd, key] : first_use)
      push(topo.devices[pd.second].id + ".h2d", key, {PlanItem::Kind::Deliver, pd.first, pd.second});
  }
  // Activations: one delivery per (producer, other device that consumes it).
  std::map<std::pair<int, int>, long> moves;
  for (int op : order)
    for (int e : g.out_edges(op)) {
      const int dst = g.edges[e].dst;
      if (g.nodes[dst].kind != models::NodeKind::Op || device_of[dst] == device_of[op]) continue;
      moves.emplace(std::make_pair(op, device_of[dst]), 3 * pos[op] + 2);
    }
  for (auto& [od, key] : moves) {
    const std::string q = topo.devices[device_of[od.first]].id + "->" + topo.devices[od.second].id;
    push(q, key, {PlanItem::Kind::Deliver, od.first, od.second});
  }

  Plan plan;
  plan.placer = std::move(placer);
  plan.device_of = std::move(device_of);
  for (const std::string& q : queue_order) {
    auto items = queues[q];
    std::stable_sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.first < b.first; });
    PlanQueue pq{q, {}};
    for (auto& [_, item] : items) pq.items.push_back(item);
    plan.queues.push_back(std::move(pq));
  }
  return plan;
}

}  // namespace placesim::scheduler
