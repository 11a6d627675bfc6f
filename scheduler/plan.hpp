// A Plan: the decisions of a placer, and nothing else (DESIGN.md, "Plan").
//
// * every op node sits on one compute device;
// * every task sits on a named queue, in the order the plan gives. A task is either the
//   compute of an op (`op`) or the delivery of a node's data to a device (`node@device`): for
//   a parameter, its copy from host memory; for an op, its output moved from the op's device.
//
// lower() turns a Plan into a TaskGraph and only translates: it never reorders or adds work.
#pragma once

#include <string>
#include <vector>

namespace placesim::scheduler {

struct PlanItem {
  enum class Kind { Compute, Deliver } kind = Kind::Compute;
  int node = -1;    // graph node
  int device = -1;  // Deliver: destination device (topology index); Compute: unused (-1)
  bool operator==(const PlanItem&) const = default;
};

struct PlanQueue {
  std::string name;
  std::vector<PlanItem> items;
  bool operator==(const PlanQueue&) const = default;
};

struct Plan {
  std::string placer;
  std::vector<int> device_of;    // per graph node: compute device of an op, -1 for parameters
  std::vector<PlanQueue> queues;
  bool operator==(const Plan&) const = default;
};

}  // namespace placesim::scheduler
