// Completes a Plan from an op -> device assignment, with the queues every placer in this layer
// uses: `<dev>.compute` (ops in the given order; `<gpu>.compute<k>` for stream k), `<dev>.h2d`
// (parameter copies, weights: host, and activations a CPU sends to a GPU), `<gpu>.d2h`
// (activations a GPU sends to a CPU) and `<src>-><dst>` (activations moved between GPUs, and
// the forwarded part of a parallel transmission). Every copy of a GPU goes to its first copy
// engine; a plan that wants more edits its queues.
//
// Every queue is sorted by one global key in which each task's dependencies come first (the
// position of an op in `order`; a delivery just after its producer; a parameter copy, and both
// legs of a parallel transmission, before its first consumer on the device), so a built plan
// can never deadlock.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "scheduler/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

struct BuildOptions {
  std::vector<int> stream_of;  // per graph node: compute stream of an op on its GPU; empty: all 0
  HostBuffer buffer = HostBuffer::Pinned;
  std::map<std::pair<int, int>, ParamDelivery> params;  // as Plan::params
};

// `device_of`: per graph node, the device of each op (entries of parameters are ignored).
// `order`: every op node once, dependencies first (e.g. the graph's topological order).
Plan build_plan(const Problem& p, std::string placer, std::vector<int> device_of, const std::vector<int>& order,
                const BuildOptions& opts = {});

}  // namespace placesim::scheduler
