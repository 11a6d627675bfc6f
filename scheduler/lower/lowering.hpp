// The state of one lower() call, shared by its translation units (lower.cpp: resources, tasks,
// dependencies; collectives.cpp: collectives; dispatch.cpp: the runtime's dispatch
// threads; memory.cpp: buffers). Internal to scheduler/lower/; see lower.hpp for the rules.
#pragma once

#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hw/route_cost.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/names.hpp"

namespace placesim::scheduler::detail {

// Adds `bytes` of every link direction `hops` cross to `uses`, merging with a use of the same
// resource already there; link_resource: per link, the resource of its a->b direction (b->a is
// the next id). Transfers, Dha reads and collectives all use a route this way.
void add_route_uses(engine::UseList& uses, const std::vector<engine::ResourceId>& link_resource,
                    const std::vector<hw::Hop>& hops, double bytes);

// The plan's deliveries (every item but computes, launches and syncs) and their tasks, sorted by
// (kind, node, device): a lookup is a binary search in one array, and a node's deliveries of one
// kind are one range (100k-op plans make some 200k of them).
struct Transfer {
  PlanItem::Kind kind;
  int node, device;
  engine::TaskId task;
  auto key() const { return std::tuple(kind, node, device); }
};

// What a node's edges to ops carry: the most bytes any of them carries, and per device its
// consumers are on (ascending), the most bytes and the shortest fixed time among the edges to
// them.
struct OutEdges {
  struct ToDevice {
    int device = -1;
    double bytes = 0;
    std::optional<double> fixed;
  };
  double max_bytes = 0;
  std::vector<ToDevice> to_device;
  const ToDevice* to(int device) const;  // nullptr when no consumer is there
};

struct Lowering {
  const Problem& p;
  const Plan& plan;
  const models::Graph& g;
  const hw::Topology& topo;
  Lowered out;
  std::vector<engine::ResourceId> device_resource;  // per device, -1 when it does not compute; a CPU's first core
  std::vector<engine::ResourceId> memory_resource;  // per host memory with a memory_bw, else -1
  std::vector<engine::ResourceId> link_resource;    // per link: forward id; backward = id + 1
  std::map<std::tuple<int, QueueRole::Kind, int>, engine::ResourceId> engine_resource;  // (gpu, kind, k)
  std::vector<engine::PoolId> device_pool;          // per device, -1 when untracked
  std::vector<engine::TaskId> compute;              // per node
  std::vector<Transfer> transfers;  // sorted by key() once add_tasks is done
  std::map<std::pair<int, int>, engine::TaskId> launch;  // (node, device: -1 for an op's kernel)
  std::vector<std::pair<engine::TaskId, int>> syncs;     // (task, the op it waits for)

  Lowering(const Problem& prob, const Plan& pl) : p(prob), plan(pl), g(*prob.graph), topo(*prob.topo) {}

  // lower.cpp
  void check_plan() const;
  void add_resources();
  void add_tasks();
  void add_dependencies();
  // collectives.cpp
  void add_collectives();
  // dispatch.cpp
  void add_dispatch();
  // memory.cpp
  void add_pools();
  void add_memory();

 private:
  void fill_compute(engine::Task& t, int n, const QueueRole& queue);
  int memory_of(int device) const;  // the host memory with a bandwidth resource a device's data sits in, or -1
  void add_memory_use(engine::Task& t, int host, double bytes) const;
  engine::TaskId edge_arrival(int e, engine::TaskId delivery);
  void fill_transfer(engine::Task& t, engine::TaskExtras& extras, const std::string& name, const PlanItem& it,
                     const QueueRole& queue);
  // Node n's OutEdges. Kept for a node of many edges, so that a producer feeding thousands of
  // consumers on hundreds of devices (a clock op starting flows) is scanned once, not once per
  // delivery; a node of a few is summed again each time, into one scratch record.
  const OutEdges& out_edges(int n);
  std::unordered_map<int, OutEdges> out_edges_kept_;
  OutEdges out_edges_scratch_;
  void add_traffic(engine::TaskId id, const PlanItem& it);  // of the delivery task `id`
  void add_route(engine::Task& t, int src, int dst, double bytes) const;  // latency and link uses src -> dst
  double alone_rate(int src, int dst) const;                               // bytes/s src -> dst sharing nothing
  void add_alone(engine::Task& t, int src, int dst, double bytes);        // the pair's own connection
  std::map<std::pair<int, int>, engine::ResourceId> pair_resource;        // add_alone's, by (src, dst)
  engine::TaskId needed(PlanItem::Kind kind, int node, int device, int for_op) const;
  engine::TaskId forwarded_from(int param, int device) const;
  engine::TaskId find_transfer(PlanItem::Kind kind, int node, int device) const;  // -1 when none
  // The first transfer whose key is not below (kind, node, device).
  std::vector<Transfer>::const_iterator transfers_from(PlanItem::Kind kind, int node, int device) const;
  void sort_transfers();  // and refuses an item delivered twice
  engine::PoolId pool_of(int d) const;
  std::vector<engine::TaskId> users_on(int n, int dev) const;
  double share(const PlanItem& it) const;  // of a parameter's bytes that a transfer task moves
};

}  // namespace placesim::scheduler::detail
