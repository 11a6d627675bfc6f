// The plan of a tensor-parallel design, and its bulk-synchronous estimate: what megatron-tp,
// autoddl-2d and asymgroup share once they have decided how to split each op.
//
// A design says, in the problem's graph, how each op is split (scheduler/plan/plan.hpp PlanSplit:
// columns, rows, heads, a 2D block, or replicas) or, for an op left whole, its device, and
// which collectives join the slices (after / before name ops of the problem's graph; each
// stands for all its slices, or with `group_joins` for its slices on the collective's group:
// data-parallel replicas, each joining only its own slices). build_tp_plan lays the plan out with build_plan on the sliced graph
// in an order where every collective's `after` ops come before its `before` ops, so the queues
// never wait on each other in a cycle.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::scheduler::tp {

struct TpDesign {
  std::map<int, PlanSplit> splits;
  std::vector<int> device_of;               // per graph node: the device of an op left whole
  std::vector<PlanCollective> collectives;  // after / before: ops of the problem's graph
  bool group_joins = false;                 // a split op in after / before: its slices on the group
  // How parameters reach devices (weights: host), as Plan::params but keyed by the sliced
  // graph's nodes (slice_ids: a partitioned parameter's slices); absent: copied.
  std::map<std::pair<int, int>, ParamDelivery> params;
};

// The plan, and the problem on its sliced graph (sliced_problem(p, plan): what build_plan laid
// the plan out on, and what bsp_seconds reads), sliced once: a 1024-way split of a model is a
// graph of a million nodes.
struct TpPlan {
  Plan plan;
  Problem sliced;
};

TpPlan build_tp_plan(const Problem& p, std::string placer, const TpDesign& d);

// The design's time as a bulk-synchronous program, the model the tensor-parallel papers reason
// with: every GPU runs the ops in topological order, each as long as its slowest slice (the cost
// model's duration of the slice on its device); each collective takes its closed form
// (engine::analytic_seconds on the topology's routes) from the end of its last `after` op, and
// an op waits for the collectives it comes `before`. Collectives of one stage (a 2D grid's
// all-gathers of every row) overlap; nothing else is shared. Under `weights: host` an op also
// waits for its slices' parameter copies: the plan's copies all stream from the start, in the
// order of the ops that first read them, sharing the links they cross, so the copies up to an
// op have arrived once every link direction on their routes has carried their bytes at its
// bandwidth (plus the route's latency). Resident parameters and direct host access wait for
// nothing.
double bsp_seconds(const Problem& p, const TpPlan& tp);

// A ring algorithm for a group: `hierarchical` when it spans several nodes with the same number
// (at least two) of its members on each, else `ring` (NCCL's choice between its ring inside a
// node and its two-level ring across nodes).
std::string ring_algorithm(const hw::Topology& topo, const std::vector<int>& group);

// A count option (`k` groups, `tp` GPUs per group): 0 for the word that leaves it to the placer
// (`auto`, `all`), else a whole number >= 1 (fails at the option otherwise, naming it).
int count_option(const Yaml& v, const std::string& name, const std::string& word);

}  // namespace placesim::scheduler::tp
