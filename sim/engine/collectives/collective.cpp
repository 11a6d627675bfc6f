// Checking a spec, and dispatching it to its algorithm at flow or analytic fidelity.
#include "sim/engine/collectives/collective.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>

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
  if (n < 1) throw InputError(fmt::format("{}: a group needs at least one member", what));
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

// What each rank sends each peer in the algorithm, summed per (src, dst) member pair: the flow
// lowering's traffic, lowered into a scratch graph in one chunk (chunks cut the same bytes into
// pieces), so that both fidelities count the same bytes.
std::map<std::pair<int, int>, double> flow_sends(const CollectiveAlgorithm& a, const CollectiveSpec& spec,
                                                 const Network& net) {
  CollectiveSpec one = spec;
  one.chunks = 1;
  one.after.clear();
  TaskGraph scratch;
  Lowering low(scratch, one, net);
  a.lower(low);
  std::map<std::pair<int, int>, double> sent;
  for (const Traffic& t : scratch.traffic) sent[{t.src, t.dst}] += t.bytes;
  return sent;
}

// Link fidelity: after every rank's `after`, one task per resource the flows use, waiting the
// flows' latency chain, then moving their whole amount on it; every rank is done when the last
// of them has ended. Its traffic: what each member sends in the flows.
std::vector<TaskId> lower_link(TaskGraph& g, const CollectiveSpec& spec, const Network& net) {
  const LinkLoads& loads = link_loads(spec, net);
  // Every rank's `after`, joined once: thousands of link tasks each waiting for a thousand
  // predecessors would hold millions of dependencies.
  std::vector<TaskId> all;
  for (const std::vector<TaskId>& deps : spec.after) all.insert(all.end(), deps.begin(), deps.end());
  if (all.size() > 1) {
    Task gate;
    gate.kind = TaskKind::Transfer;
    gate.queue = g.add_queue(spec.name + ":after");
    gate.deps = all;
    all = {g.add_task(spec.name + ".after", std::move(gate))};
  }
  std::vector<TaskId> links;
  for (auto [resource, amount] : loads.amounts) {
    const std::string on = resource < static_cast<ResourceId>(g.resources.size()) ? g.resources[resource].name
                                                                                    : fmt::format("r{}", resource);
    Task t;
    t.kind = TaskKind::Transfer;
    t.queue = g.add_queue(fmt::format("{}:{}", spec.name, on));
    t.deps = all;
    t.uses.push_back(Use{resource, amount});
    t.latency = loads.latency;
    t.bytes = amount;
    links.push_back(g.add_task(fmt::format("{}.link.{}", spec.name, on), std::move(t)));
  }
  Task done;
  done.kind = TaskKind::Transfer;
  done.queue = g.add_queue(spec.name + ":done");
  done.deps = links;
  const TaskId id = g.add_task(spec.name + ".done", std::move(done));
  for (const auto& [src, dst, bytes] : loads.sent) g.traffic.push_back({id, src, dst, to_string(spec.op), bytes});
  return std::vector<TaskId>(spec.group.size(), id);
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
  const CollectiveAlgorithm& a = checked(spec);
  return spec.group.size() == 1 ? 0 : a.analytic(spec, net);
}

double collective_transfers_estimate(double ranks, double chunks) {
  return 2 * ranks * std::max(1.0, ranks - 1) * chunks;
}

std::vector<TaskId> lower_collective(TaskGraph& g, const CollectiveSpec& spec, const Network& net) {
  const CollectiveAlgorithm& a = checked(spec);
  if (spec.fidelity == Fidelity::Flow && spec.group.size() > 1) {
    // Room ahead: at tens of millions of tasks, growth by doubling would copy the graph and
    // briefly hold it twice. A transfer's name is the collective's, a step label and the two
    // members' ids, and shares all but the ids' last digits with the one before it (the graph
    // keeps names front-coded): about 8 bytes each.
    const auto n = static_cast<double>(spec.group.size());
    g.reserve_tasks(static_cast<std::size_t>(collective_transfers_estimate(n, spec.chunks) + 2 * n), 8);
    Lowering low(g, spec, net);
    a.lower(low);
    return low.finish();
  }
  if (spec.fidelity == Fidelity::Link && spec.group.size() > 1) return lower_link(g, spec, net);
  // Analytic or ideal (and a group of one, which moves nothing): every rank waits for all ranks'
  // `after`, then the closed form (or its own end, where the algorithm's ranks end apart). Its
  // task uses no resource; its bytes and traffic are what the rank sends in the algorithm.
  const bool ideal = spec.fidelity == Fidelity::Ideal && a.ideal && spec.group.size() > 1;
  const bool apart = !ideal && a.analytic_ends && spec.group.size() > 1;
  const std::vector<double> ends =
      apart ? a.analytic_ends(spec, net)
            : std::vector<double>(spec.group.size(), ideal ? a.ideal(spec, net) : analytic_seconds(spec, net));
  std::vector<TaskId> all;
  for (const std::vector<TaskId>& deps : spec.after) all.insert(all.end(), deps.begin(), deps.end());
  const std::map<std::pair<int, int>, double> sent =
      spec.group.size() > 1 ? flow_sends(a, spec, net) : std::map<std::pair<int, int>, double>{};
  std::vector<TaskId> done;
  for (std::size_t r = 0; r < spec.group.size(); ++r) {
    const int member = spec.group[r];
    Task task;
    task.kind = TaskKind::Transfer;
    task.queue = g.add_queue(fmt::format("{}:{}", spec.name, member));
    task.deps = all;
    task.latency = ceil_ps(ends[r]);
    const TaskId id = static_cast<TaskId>(g.tasks.size());
    for (auto& [pair, bytes] : sent) {
      if (pair.first != member) continue;
      task.bytes += bytes;
      g.traffic.push_back({id, member, pair.second, to_string(spec.op), bytes});
    }
    done.push_back(g.add_task(fmt::format("{}.analytic.{}", spec.name, member), std::move(task)));
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
  register_flexreduce(r);
}

}  // namespace placesim::engine
