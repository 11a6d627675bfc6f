// Checking a spec, and dispatching it to its algorithm at flow or analytic fidelity.
#include "sim/engine/collectives/collective.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

namespace {

constexpr CollectiveOp kOps[] = {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter,
                                 CollectiveOp::Broadcast, CollectiveOp::AllToAll, CollectiveOp::PointToPoint};

std::string op_list(const std::vector<CollectiveOp>& ops) {
  std::string s;
  for (CollectiveOp op : ops) s += (s.empty() ? "" : ", ") + std::string(to_string(op));
  return s;
}

// The checks every algorithm shares; the algorithm checks its own options (nodes, weights, groups).
const CollectiveAlgorithm& checked(const CollectiveSpec& spec) {
  const std::string what = fmt::format("collective '{}'", spec.name);
  const std::size_t n = spec.group.size();
  if (n < 2) throw InputError(fmt::format("{}: a group needs at least two members, got {}", what, n));
  std::vector<int> sorted = spec.group;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) throw InputError(fmt::format("{}: member {} appears more than once in the group", what, *dup));
  if (!(spec.bytes > 0) || !std::isfinite(spec.bytes)) {
    throw InputError(fmt::format("{}: bytes must be positive and finite, got {}", what, spec.bytes));
  }
  if (spec.chunks < 1) throw InputError(fmt::format("{}: chunks must be at least 1, got {}", what, spec.chunks));
  if (!spec.after.empty() && spec.after.size() != n) {
    throw InputError(fmt::format("{}: `after` has {} entries for a group of {}", what, spec.after.size(), n));
  }
  const CollectiveAlgorithm& a = collective_algorithms().get(spec.algorithm);
  if (std::find(a.ops.begin(), a.ops.end(), spec.op) == a.ops.end()) {
    throw InputError(fmt::format("{}: algorithm '{}' does not implement {} (it implements: {})", what, spec.algorithm,
                                 to_string(spec.op), op_list(a.ops)));
  }
  if (!spec.groups.empty() && std::find(a.grouped.begin(), a.grouped.end(), spec.op) == a.grouped.end()) {
    throw CollectiveOptionError("groups", fmt::format("{}: algorithm '{}' takes no `groups` for {}", what,
                                                      spec.algorithm, to_string(spec.op)));
  }
  return a;
}

}  // namespace

const char* to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return "all-reduce";
    case CollectiveOp::AllGather: return "all-gather";
    case CollectiveOp::ReduceScatter: return "reduce-scatter";
    case CollectiveOp::Broadcast: return "broadcast";
    case CollectiveOp::AllToAll: return "all-to-all";
    case CollectiveOp::PointToPoint: return "point-to-point";
  }
  return "?";
}

CollectiveOp parse_collective_op(const std::string& name) {
  for (CollectiveOp op : kOps) {
    if (name == to_string(op)) return op;
  }
  throw InputError(fmt::format("unknown collective operation '{}' (known: {})", name,
                               op_list({std::begin(kOps), std::end(kOps)})));
}

double analytic_seconds(const CollectiveSpec& spec, const Network& net) {
  return checked(spec).analytic(spec, net);
}

std::vector<TaskId> lower_collective(TaskGraph& g, const CollectiveSpec& spec, const Network& net) {
  const CollectiveAlgorithm& a = checked(spec);
  if (spec.fidelity == Fidelity::Flow) {
    Lowering low(g, spec, net);
    a.lower(low);
    return low.finish();
  }
  // Analytic: every rank waits for all ranks' `after`, then the closed form.
  const TimePs t = ceil_ps(a.analytic(spec, net));
  std::vector<TaskId> all;
  for (const std::vector<TaskId>& deps : spec.after) all.insert(all.end(), deps.begin(), deps.end());
  std::vector<TaskId> done;
  for (int member : spec.group) {
    Task task;
    task.name = fmt::format("{}.analytic.{}", spec.name, member);
    task.kind = TaskKind::Transfer;
    task.queue = g.add_queue(fmt::format("{}:{}", spec.name, member));
    task.deps = all;
    task.latency = t;
    done.push_back(g.add_task(std::move(task)));
  }
  return done;
}

Registry<CollectiveAlgorithm>& collective_algorithms() {
  static Registry<CollectiveAlgorithm> registry = [] {
    Registry<CollectiveAlgorithm> r("collective algorithm");
    register_builtin_collectives(r);
    return r;
  }();
  return registry;
}

void register_builtin_collectives(Registry<CollectiveAlgorithm>& r) {
  register_ring(r);
  register_tree(r);
  register_direct(r);
  register_hierarchical(r);
  register_proportional(r);
}

}  // namespace placesim::engine
