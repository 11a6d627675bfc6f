#include "scheduler/lower/collectives.hpp"

#include <algorithm>

#include "scheduler/lower/lowering.hpp"

namespace placesim::scheduler {

RouteNetwork::RouteNetwork(const hw::Topology& topo, std::vector<engine::ResourceId> link_resource)
    : topo_(topo), link_resource_(std::move(link_resource)) {
  if (topo.network_ideal || topo.network_uncontended) return;  // no link resources to use
  if (link_resource_.empty())
    for (std::size_t l = 0; l < topo.links.size(); ++l) link_resource_.push_back(static_cast<engine::ResourceId>(2 * l));
  PLACESIM_ASSERT(link_resource_.size() == topo.links.size(), "RouteNetwork: a resource per link");
  for (std::size_t l = 0; l < topo.links.size(); ++l) {
    const std::size_t r = link_resource_[l];
    if (capacity_.size() < r + 2) capacity_.resize(r + 2, 0);
    capacity_[r] = topo.links[l].bw_ab;
    capacity_[r + 1] = topo.links[l].bw_ba;
  }
}

engine::UseList RouteNetwork::uses(int src, int dst, double bytes) const {
  engine::UseList out;
  if (topo_.network_ideal) return out;
  if (topo_.network_uncontended) {
    auto [at, added] = pair_.try_emplace({src, dst}, static_cast<engine::ResourceId>(pair_.size()));
    if (added) pair_capacity_.push_back(bandwidth(src, dst));
    if (bytes > 0) out.push_back({at->second, bytes});
    return out;
  }
  detail::add_route_uses(out, link_resource_, topo_.route(src, dst)->hops, bytes);
  return out;
}

double RouteNetwork::capacity(engine::ResourceId r) const {
  if (topo_.network_uncontended) return pair_capacity_.at(static_cast<std::size_t>(r));
  PLACESIM_ASSERT(r >= 0 && static_cast<std::size_t>(r) < capacity_.size() && capacity_[r] > 0,
                  "RouteNetwork: capacity of a resource that is not a link direction");
  return capacity_[r];
}

TimePs RouteNetwork::latency(int src, int dst) const { return ceil_ps(hw::route_cost(topo_, src, dst).latency_s); }

double RouteNetwork::bandwidth(int src, int dst) const { return hw::route_cost(topo_, src, dst).bandwidth; }

engine::CollectiveSpec collective_spec(const PlanCollective& c, const hw::Topology& topo, engine::Fidelity fidelity) {
  engine::CollectiveSpec s;
  s.name = c.name;
  s.op = c.op;
  s.algorithm = c.algorithm;
  s.group = c.group;
  s.bytes = c.bytes;
  s.chunks = c.chunks;
  s.fidelity = fidelity;
  s.weights = c.weights;
  s.groups = c.groups;
  s.senders = c.senders;
  std::vector<std::string> nodes;  // node names, numbered by first appearance
  for (int d : c.group) {
    const std::string& node = topo.devices[d].node;
    auto it = std::find(nodes.begin(), nodes.end(), node);
    s.nodes.push_back(static_cast<int>(it - nodes.begin()));
    if (it == nodes.end()) nodes.push_back(node);
  }
  return s;
}

namespace detail {

// Each collective after the compute of its `after` ops (per rank: those on its device, and
// those off the group), and the compute of its `before` ops after its end on their rank (all
// ranks for an op off the group).
void Lowering::add_collectives() {
  const RouteNetwork net(topo, link_resource);
  engine::TaskGraph& tg = out.graph;
  for (const PlanCollective& c : plan.collectives) {
    auto rank_of = [&](int op) {
      return static_cast<int>(std::find(c.group.begin(), c.group.end(), plan.device_of[op]) - c.group.begin());
    };
    const int n = static_cast<int>(c.group.size());
    // Sharing nothing (`network: uncontended`), a collective asked for as flows takes its closed form.
    const bool closed = topo.network_uncontended && p.collectives == engine::Fidelity::Flow;
    engine::CollectiveSpec spec = collective_spec(c, topo, closed ? engine::Fidelity::Analytic : p.collectives);
    spec.after.assign(c.group.size(), {});
    for (int op : c.after) {
      const int rank = rank_of(op);  // n: off the group, before every rank
      for (int r = rank == n ? 0 : rank; r < (rank == n ? n : rank + 1); ++r) spec.after[r].push_back(compute[op]);
    }
    const auto first = static_cast<engine::TaskId>(tg.tasks.size());
    const std::vector<engine::TaskId> done = engine::lower_collective(tg, spec, net);
    out.collective_tasks.emplace_back(first, static_cast<engine::TaskId>(tg.tasks.size()));
    for (int op : c.before) {
      engine::DepList& deps = tg.tasks[compute[op]].deps;
      if (const int rank = rank_of(op); rank < n) deps.push_back(done[rank]);
      else deps.append(done.data(), done.data() + done.size());
    }
  }
}

}  // namespace detail
}  // namespace placesim::scheduler
