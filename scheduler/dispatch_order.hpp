// The order in which a runtime's dispatch thread issues a plan's ops when the plan gives none
// (docs/execution.md, "The runtime"): one thread, every op, in a topological order of the plan
// itself, as ONNX Runtime's sequential executor and PyTorch eager walk the graph.
#pragma once

#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"

namespace placesim::scheduler {

// Every op of `g` (the plan's sliced graph) once, each after the ops it waits for in the plan:
// its producers, the compute before it on its queue, and the `after` ops of a collective it
// comes `before`; among the ops ready at once, the lowest node id first (the model's own
// order). A plan whose queues contradict its graph has no such order: its ops left over follow
// in id order (lower() then reports the plan's deadlock).
std::vector<int> default_dispatch_order(const models::Graph& g, const Plan& plan);

// What is wrong with `plan.dispatch` (message "" when it names every op of `g` exactly once on a
// machine whose runtime has that many threads), and the entry at fault: thread `thread`'s
// `index`-th op, or the whole list (-1). A plan file locates the error there (scheduler/plan/json.cpp).
struct DispatchProblem {
  std::string message;
  int thread = -1, index = -1;
};
DispatchProblem check_dispatch(const models::Graph& g, const hw::Topology& topo, const Plan& plan);

}  // namespace placesim::scheduler
