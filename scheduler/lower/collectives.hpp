// A plan's collectives on a topology: the engine's Network over hw::Topology routes, and the
// engine spec of one collective. lower() appends each collective with
// engine::lower_collective; plan_rules asks the same spec for its closed form to check it.
//
//   uses(src, dst, b)  b of every link direction on the route (no copy engine: the members are
//                      GPUs exchanging peer to peer, as NCCL does); none on an ideal network
//   latency(src, dst)  the route's latency (0 on an ideal network)
//   bandwidth(s, d)    the route's bottleneck in that direction (infinite on an ideal network)
//
// Hierarchical collectives take each member's node from hw::Device::node.
// Memory: none is accounted. A collective's bytes are data in transit between buffers that the
// ops around it already hold (their activations), so it adds no buffer of its own.
#pragma once

#include <map>

#include <vector>

#include "hw/topology.hpp"
#include "scheduler/plan/plan.hpp"
#include "sim/engine/collectives/collective.hpp"

namespace placesim::scheduler {

class RouteNetwork final : public engine::Network {
 public:
  // link_resource: per link, the engine resource of its a->b direction (b->a is the next id).
  // Empty for a network outside any TaskGraph (checking a plan, a placer's estimate): link l's
  // directions are then resources 2l and 2l+1, which is all a collective solved alone needs.
  RouteNetwork(const hw::Topology& topo, std::vector<engine::ResourceId> link_resource);
  engine::UseList uses(int src, int dst, double bytes) const override;
  TimePs latency(int src, int dst) const override;
  double bandwidth(int src, int dst) const override;
  double capacity(engine::ResourceId r) const override;

 private:
  const hw::Topology& topo_;
  std::vector<engine::ResourceId> link_resource_;
  std::vector<double> capacity_;  // by resource id, for the link directions
  // `network: uncontended`: a connection per ordered pair (a full mesh), numbered as first used,
  // of the pair's route bandwidth; only a collective solved alone uses them.
  mutable std::map<std::pair<int, int>, engine::ResourceId> pair_;
  mutable std::vector<double> pair_capacity_;
};

engine::CollectiveSpec collective_spec(const PlanCollective& c, const hw::Topology& topo, engine::Fidelity fidelity);

}  // namespace placesim::scheduler
