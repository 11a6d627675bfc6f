// Completes a Plan from an op -> device assignment, with the queues every placer in this layer
// uses: `<dev>.compute` (ops in the given order), `<dev>.h2d` (parameter copies, weights: host)
// and `<src>-><dst>` (activations moved between devices).
//
// Every queue is sorted by one global key in which each task's dependencies come first (the
// position of an op in `order`; a delivery just after its producer; a parameter copy before
// its first consumer on the device), so a built plan can never deadlock.
#pragma once

#include <vector>

#include "scheduler/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

// `device_of`: per graph node, the device of each op (entries of parameters are ignored).
// `order`: every op node once, dependencies first (e.g. the graph's topological order).
Plan build_plan(const Problem& p, std::string placer, std::vector<int> device_of, const std::vector<int>& order);

}  // namespace placesim::scheduler
