#include "scheduler/plan/builder.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>

#include "scheduler/plan/names.hpp"

namespace placesim::scheduler {
namespace {

bool is_gpu(const hw::Topology& topo, int d) { return topo.devices[d].kind == hw::DeviceKind::Gpu; }

// The queue that moves an activation from device `src` to device `dst`.
std::string move_queue(const hw::Topology& topo, int src, int dst) {
  if (is_gpu(topo, src) && !is_gpu(topo, dst)) return queue_name(topo, {QueueRole::Kind::D2h, src, 0});
  if (!is_gpu(topo, src) && is_gpu(topo, dst)) return queue_name(topo, {QueueRole::Kind::H2d, dst, 0});
  return channel_queue_name(topo, src, dst);
}

// Queues found by name: appending to the queue of a given name, added at the end if new, is
// O(1) (a HEFT plan has a queue per delivery, some 190k for 100k ops).
class NamedQueues {
 public:
  explicit NamedQueues(std::vector<PlanQueue>& queues) : queues_(queues) {
    for (size_t i = 0; i < queues_.size(); ++i) at_.emplace(queues_[i].name, i);
  }
  void append(const std::string& name, const PlanItem& it) {
    auto [found, fresh] = at_.emplace(name, queues_.size());
    if (fresh) queues_.push_back({name, {}});
    queues_[found->second].items.push_back(it);
  }

 private:
  std::vector<PlanQueue>& queues_;
  std::unordered_map<std::string, size_t> at_;  // the first queue of each name
};

}  // namespace

Plan build_plan(const Problem& p, std::string placer, std::vector<int> device_of, const std::vector<int>& order,
                const BuildOptions& opts) {
  const models::Graph& g = *p.graph;
  const hw::Topology& topo = *p.topo;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == models::NodeKind::Param) device_of[i] = -1;

  Plan plan;
  plan.placer = std::move(placer);
  plan.buffer = opts.buffer;
  plan.params = opts.params;

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
    const int stream = opts.stream_of.empty() ? 0 : opts.stream_of[op];
    const QueueRole compute{QueueRole::Kind::Compute, dev, is_gpu(topo, dev) ? stream : 0};
    push(queue_name(topo, compute), 3 * pos[op] + 1, {PlanItem::Kind::Compute, op, -1});
  }
  // Parameter copies: one per (parameter, device that reads it), before its first reader there;
  // none when it is read by direct host access or resident there; three legs for a parallel
  // transmission.
  if (p.weights == WeightsMode::Host) {
    std::map<std::pair<int, int>, long> first_use;
    for (int op : order)
      for (int e : g.in_edges(op)) {
        const int src = g.edges[e].src;
        if (g.nodes[src].kind != models::NodeKind::Param) continue;
        first_use.emplace(std::make_pair(src, device_of[op]), 3 * pos[op]);
      }
    for (auto& [pd, key] : first_use) {
      const auto [param, dev] = pd;
      const ParamDelivery d = plan.delivery(param, dev);
      if (d.via == ParamDelivery::Via::Dha || d.via == ParamDelivery::Via::Resident) continue;
      push(queue_name(topo, {QueueRole::Kind::H2d, dev, 0}), key, {PlanItem::Kind::Deliver, param, dev});
      if (d.via != ParamDelivery::Via::Parallel) continue;
      push(queue_name(topo, {QueueRole::Kind::H2d, d.neighbour, 0}), key, {PlanItem::Kind::Stage, param, dev});
      push(channel_queue_name(topo, d.neighbour, dev), key, {PlanItem::Kind::Forward, param, dev});
    }
  }
  // Activations: one delivery per (producer, other device that consumes it).
  std::map<std::pair<int, int>, long> moves;
  for (int op : order)
    for (int e : g.out_edges(op)) {
      const int dst = g.edges[e].dst;
      if (g.nodes[dst].kind != models::NodeKind::Op || device_of[dst] == device_of[op]) continue;
      moves.emplace(std::make_pair(op, device_of[dst]), 3 * pos[op] + 2);
    }
  for (auto& [od, key] : moves)
    push(move_queue(topo, device_of[od.first], od.second), key, {PlanItem::Kind::Deliver, od.first, od.second});

  plan.device_of = std::move(device_of);
  plan.cpu_cores = opts.cpu_cores;
  plan.dispatch = opts.dispatch;
  std::set<std::tuple<PlanItem::Kind, int, int>> on_ready;  // tasks a ready queue takes from the others
  for (const auto& [dev, items] : opts.ready)
    for (const PlanItem& it : items) on_ready.emplace(it.kind, it.node, it.device);
  std::map<std::string, std::vector<std::pair<int, PlanItem>>> channels;  // name -> (rank, delivery)
  for (const std::string& q : queue_order) {
    auto& items = queues[q];
    std::stable_sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.first < b.first; });
    PlanQueue kept{q, {}};
    std::vector<PlanQueue> cores;  // this CPU compute queue split per core, in order of first use
    NamedQueues core_named(cores);
    for (auto& [_, it] : items) {
      if (on_ready.count({it.kind, it.node, it.device})) continue;
      const bool param = g.nodes[it.node].kind == models::NodeKind::Param;
      const int dev = plan.device_of[it.node];
      if (it.kind == PlanItem::Kind::Deliver && !param && opts.delivery_queues) {
        plan.queues.push_back({item_name(it, g, topo), {it}});
      } else if (it.kind == PlanItem::Kind::Deliver && !param && !opts.channel_rank.empty()) {
        channels[channel_queue_name(topo, dev, it.device)].emplace_back(opts.channel_rank.at({it.node, it.device}), it);
      } else if (it.kind == PlanItem::Kind::Compute && opts.cpu_cores.count(dev)) {
        core_named.append(queue_name(topo, {QueueRole::Kind::Core, dev, opts.core_of[it.node]}), it);
      } else if (!param || opts.copies.empty()) {
        kept.items.push_back(it);
      }
    }
    for (PlanQueue& c : cores) plan.queues.push_back(std::move(c));
    if (!kept.items.empty()) plan.queues.push_back(std::move(kept));
  }
  for (auto& [name, items] : channels) {
    std::sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    PlanQueue q{name, {}};
    for (const auto& [rank, it] : items) q.items.push_back(it);
    plan.queues.push_back(std::move(q));
  }
  if (!opts.copies.empty()) {
    NamedQueues named(plan.queues);
    for (const ParamCopy& c : opts.copies) named.append(c.queue, {c.kind, c.param, c.device});
  }
  for (const auto& [dev, items] : opts.ready)
    if (!items.empty()) plan.queues.push_back({ready_queue_name(topo, dev), items});
  return plan;
}

Plan complete_plan(const Problem& p, Plan given) {
  if (!given.queues.empty()) return given;
  std::vector<int> order;
  for (int n : p.graph->topo_order())
    if (p.graph->nodes[n].kind == models::NodeKind::Op) order.push_back(n);
  BuildOptions opts;
  opts.buffer = given.buffer;
  Plan plan = build_plan(p, given.placer, given.device_of, order, opts);
  plan.origin = given.origin;  // errors about an op's device still point at its entry
  return plan;
}

}  // namespace placesim::scheduler
