// lower(): the one bridge from a plan on a topology to the engine's IR (DESIGN.md).
//
//   * each compute device is a resource of capacity 1 (exclusive when the device runs one
//     kernel at a time); each direction of each link a resource of its bandwidth;
//   * an op is a Compute task of its cost-model duration on its device;
//   * a delivery `node@dev` is a Transfer over the route from the data's source (the host
//     memory nearest `dev` for a parameter, the producer's device for an activation), waiting
//     the route latency first; an edge with a fixed time becomes a task of that latency and no
//     resource use; `network: ideal` makes byte edges free;
//   * memory: a copied parameter is held from its arrival to the end (from time 0 when weights
//     are resident); an activation from its producer's start to its last consumer's end, on the
//     producer's device and on every device it is delivered to; an op's state (KV cache) for
//     the whole run. A CPU's memory is the host memory nearest it.
//
// It only translates: a plan that misses a task or names one twice is an InputError.
#pragma once

#include <string>
#include <vector>

#include "scheduler/plan.hpp"
#include "scheduler/problem.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::scheduler {

struct Lowered {
  engine::TaskGraph graph;
  std::vector<int> pool_device;        // per engine pool: topology device index
  std::vector<int> resource_link;      // per engine resource: link index, -1 for devices
};

Lowered lower(const Problem& p, const Plan& plan);

// Peak memory per device id, and the first device whose peak exceeds its capacity ("" if none).
struct MemoryCheck {
  std::vector<std::pair<std::string, double>> peak;  // device id -> bytes, in pool order
  std::string over_device;
  double over_bytes = 0, capacity = 0;
};
MemoryCheck check_memory(const Problem& p, const Lowered& l, const engine::Trace& t);

}  // namespace placesim::scheduler
