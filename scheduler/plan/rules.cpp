#include "scheduler/plan/rules.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <unordered_map>

#include "scheduler/lower/collectives.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace {

using Kind = QueueRole::Kind;
using Via = ParamDelivery::Via;

bool is_host_side(const hw::Topology& topo, int d) {
  const hw::DeviceKind k = topo.devices[d].kind;
  return k == hw::DeviceKind::HostMemory || k == hw::DeviceKind::Cpu;
}

bool is_gpu(const hw::Topology& topo, int d) { return d >= 0 && topo.devices[d].kind == hw::DeviceKind::Gpu; }

const std::string& id(const hw::Topology& topo, int d) { return topo.devices[d].id; }

}  // namespace

int param_source(const Plan& plan, const hw::Topology& topo, int param, int device) {
  const int s = plan.delivery(param, device).source;
  return s >= 0 ? s : topo.host_memory_for(device);
}

Ends transfer_ends(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const PlanItem& it) {
  if (g.nodes[it.node].kind == models::NodeKind::Op) return {plan.device_of[it.node], it.device};
  const int host = param_source(plan, topo, it.node, it.device);
  const int neighbour = plan.delivery(it.node, it.device).neighbour;
  switch (it.kind) {
    case PlanItem::Kind::Stage: return {host, neighbour};
    case PlanItem::Kind::Forward: return {neighbour, it.device};
    default: return {host, it.device};
  }
}

QueueRole copy_engine(const hw::Topology& topo, Ends e, const QueueRole& queue) {
  if (e.src < 0 || e.dst < 0) return {};
  QueueRole engine;
  if (is_gpu(topo, e.dst) && is_host_side(topo, e.src)) engine = {Kind::H2d, e.dst, 0};
  else if (is_gpu(topo, e.src) && is_host_side(topo, e.dst)) engine = {Kind::D2h, e.src, 0};
  else return {};
  if (queue.kind == engine.kind && queue.device == engine.device) engine.index = queue.index;
  return engine;
}

std::string check_queue(const hw::Topology& topo, const std::string& name) {
  if (name.rfind(kDispatchQueuePrefix, 0) == 0)
    return fmt::format("queue '{}': names starting '{}' are the runtime's dispatch threads (a plan assigns ops to "
                       "them under `dispatch`)", name, kDispatchQueuePrefix);
  const QueueRole r = queue_role(topo, name);
  if (r.kind == Kind::Other) return "";
  if (r.kind == Kind::Core) {
    const hw::Device& cpu = topo.devices[r.device];
    if (r.index >= 0 && r.index < cpu.cores) return "";
    return fmt::format("queue '{}': '{}' has {} cores, queues '{}' to '{}'", name, cpu.id, cpu.cores,
                       queue_name(topo, {r.kind, r.device, 0}), queue_name(topo, {r.kind, r.device, cpu.cores - 1}));
  }
  if (r.index < 0) return fmt::format("queue '{}': the first is '{}', then '{}'", name,
                                      queue_name(topo, {r.kind, r.device, 0}), queue_name(topo, {r.kind, r.device, 1}));
  const hw::Device& gpu = topo.devices[r.device];
  const int have = r.kind == Kind::Compute ? gpu.streams : r.kind == Kind::H2d ? gpu.h2d_engines : gpu.d2h_engines;
  if (r.index < have) return "";
  const char* what = r.kind == Kind::Compute ? "compute streams" : r.kind == Kind::H2d ? "H2D copy engines" : "D2H copy engines";
  return fmt::format("queue '{}': '{}' has {} {} ({} to {})", name, gpu.id, have, what, queue_name(topo, {r.kind, r.device, 0}),
                     queue_name(topo, {r.kind, r.device, have - 1}));
}

namespace {

// A launch sits on a host queue and launches a GPU's kernel or a copy to or from a GPU that the
// plan makes.
std::string check_launch(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const std::string& queue,
                         const QueueRole& role, const PlanItem& it) {
  const auto name = [&] { return item_name(it, g, topo); };  // for a message only: most items pass
  if (role.kind != Kind::Other)
    return fmt::format("queue '{}' belongs to '{}': a launch runs on the host, so '{}' goes on a host queue "
                       "(e.g. host.launch)", queue, id(topo, role.device), name());
  if (it.device < 0) {
    if (g.nodes[it.node].kind != models::NodeKind::Op) return fmt::format("'{}': only an op has a kernel to launch", name());
    if (plan.device_of[it.node] < 0)
      return fmt::format("'{}': op '{}' has no device (the plan's `devices` does not place it)", name(),
                         g.nodes[it.node].name);
    if (!is_gpu(topo, plan.device_of[it.node]))
      return fmt::format("'{}': only a GPU kernel is launched, and '{}' runs on '{}'", name(), g.nodes[it.node].name,
                         id(topo, plan.device_of[it.node]));
    return "";
  }
  if (g.nodes[it.node].kind == models::NodeKind::Param) {
    const Via via = plan.delivery(it.node, it.device).via;
    if (via == Via::Dha || via == Via::Resident)
      return fmt::format("'{}': '{}@{}' is not copied (via: {}), so there is no copy to launch", name(),
                         g.nodes[it.node].name, id(topo, it.device), to_string(via));
  }
  const Ends ends = transfer_ends(plan, g, topo, {PlanItem::Kind::Deliver, it.node, it.device});
  if (!is_gpu(topo, ends.src) && !is_gpu(topo, ends.dst))
    return fmt::format("'{}': only a copy to or from a GPU is launched", name());
  return "";
}

}  // namespace

double launch_seconds(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const PlanItem& it) {
  if (it.device < 0) return topo.devices[plan.device_of[it.node]].launch_s;
  const Ends ends = transfer_ends(plan, g, topo, {PlanItem::Kind::Deliver, it.node, it.device});
  return topo.devices[is_gpu(topo, ends.dst) ? ends.dst : ends.src].launch_s;
}

namespace {

// For an op whose `devices` entry was changed by hand: where it runs now, and the easier way.
std::string moved_hint(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const PlanItem& it) {
  if (it.kind != PlanItem::Kind::Compute || g.nodes[it.node].kind != models::NodeKind::Op || plan.device_of[it.node] < 0)
    return "";
  return fmt::format(" (it is placed on '{}': move it to a queue of that device, or give the plan only `devices` "
                     "and the plan builder lays out the queues)",
                     topo.devices[plan.device_of[it.node]].id);
}

// A queue named for a channel between two devices (`gpu0->gpu1`, as the plan builder names them)
// carries the copies between those two, in that direction; any other name orders what it is given.
std::string check_channel(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const std::string& queue,
                          const PlanItem& it) {
  const size_t arrow = queue.find("->");
  if (arrow == std::string::npos) return "";
  const int a = topo.find(queue.substr(0, arrow)), b = topo.find(queue.substr(arrow + 2));
  if (a < 0 || b < 0) return "";
  if (it.kind == PlanItem::Kind::Compute)
    return fmt::format("queue '{}' is the channel from '{}' to '{}': '{}' is an op, not a copy (it goes on its "
                       "device's queue)", queue, id(topo, a), id(topo, b), item_name(it, g, topo));
  const Ends ends = transfer_ends(plan, g, topo, it);
  if (ends.src < 0 || (ends.src == a && ends.dst == b)) return "";
  return fmt::format("queue '{}' is the channel from '{}' to '{}': '{}' goes from '{}' to '{}' (queue '{}')", queue,
                     id(topo, a), id(topo, b), item_name(it, g, topo), id(topo, ends.src), id(topo, ends.dst),
                     channel_queue_name(topo, ends.src, ends.dst));
}

}  // namespace

std::string check_item(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const std::string& queue,
                       const QueueRole& role, const PlanItem& it) {
  if (it.kind == PlanItem::Kind::Launch) return check_launch(plan, g, topo, queue, role, it);
  const auto name = [&] { return item_name(it, g, topo); };  // for a message only: most items pass
  if (it.kind == PlanItem::Kind::Sync) {
    if (role.kind != Kind::Other)
      return fmt::format("queue '{}' belongs to '{}': a sync is the host's, so '{}' goes on a host queue", queue,
                         id(topo, role.device), name());
    return "";
  }
  const bool leg = it.kind == PlanItem::Kind::Stage || it.kind == PlanItem::Kind::Forward;
  if (g.nodes[it.node].kind == models::NodeKind::Op && leg)
    return fmt::format("'{}': only a parameter has a parallel transmission", name());
  if (g.nodes[it.node].kind == models::NodeKind::Param) {
    const Via via = plan.delivery(it.node, it.device).via;
    if (via == Via::Dha) return fmt::format("'{}' is read by direct host access: the plan must not copy it", name());
    if (via == Via::Resident) return fmt::format("'{}' is resident on '{}': the plan must not copy it", name(), id(topo, it.device));
    if (leg && via != Via::Parallel)
      return fmt::format("'{}' is a leg of a parallel transmission, but '{}@{}' is not marked via: parallel", name(),
                         g.nodes[it.node].name, id(topo, it.device));
  }
  if (role.kind == Kind::Other) return check_channel(plan, g, topo, queue, it);
  const std::string& gpu = id(topo, role.device);
  if (role.kind == Kind::Core) {
    if (it.kind != PlanItem::Kind::Compute || plan.device_of[it.node] != role.device)
      return fmt::format("queue '{}' is a core of '{}': '{}' is not an op placed there{}", queue, gpu, name(),
                         moved_hint(plan, g, topo, it));
    const int used = plan.cores(role.device) == 0 ? topo.devices[role.device].cores : plan.cores(role.device);
    if (role.index >= used)
      return fmt::format("queue '{}' is core {} of '{}', but the plan runs its ops on {} of its cores (cpu_cores), "
                         "'{}' to '{}'", queue, role.index, gpu, used, queue_name(topo, {Kind::Core, role.device, 0}),
                         queue_name(topo, {Kind::Core, role.device, used - 1}));
    return "";
  }
  if (role.kind == Kind::Compute) {
    if (it.kind != PlanItem::Kind::Compute || plan.device_of[it.node] != role.device)
      return fmt::format("queue '{}' is a compute stream of '{}': '{}' is not an op placed there{}", queue, gpu, name(),
                         moved_hint(plan, g, topo, it));
    return "";
  }
  const Ends ends = it.kind == PlanItem::Kind::Compute ? Ends{} : transfer_ends(plan, g, topo, it);
  const QueueRole engine = copy_engine(topo, ends, role);
  if (engine.kind != role.kind || engine.device != role.device)
    return fmt::format("queue '{}' is a {} copy engine of '{}': '{}' is not a copy it serves", queue,
                       role.kind == Kind::H2d ? "host-to-device" : "device-to-host", gpu, name());
  return "";
}

OptionProblem check_delivery(const Plan& plan, const models::Graph& g, const hw::Topology& topo, int param, int device,
                             const ParamDelivery& d) {
  const std::string key = g.nodes[param].name + "@" + id(topo, device);
  if (g.nodes[param].kind != models::NodeKind::Param) return {fmt::format("'{}' is not a parameter", g.nodes[param].name), ""};
  bool read = false;
  for (int e : g.out_edges(param)) read = read || plan.device_of[g.edges[e].dst] == device;
  // A resident parameter no op reads is held there all the same (an idle expert's weights).
  if (!read && (d.via != Via::Resident || !g.out_edges(param).empty()))
    return {fmt::format("'{}': no op placed on '{}' reads '{}'", key, id(topo, device), g.nodes[param].name), ""};
  if (d.source >= 0) {
    if (topo.devices[d.source].kind != hw::DeviceKind::HostMemory)
      return {fmt::format("'{}': '{}' is not a host memory", key, id(topo, d.source)), "from"};
    if (!topo.connected(d.source, device))
      return {fmt::format("'{}': no route from '{}' to '{}'", key, id(topo, d.source), id(topo, device)), "from"};
  }
  if (d.via != Via::Parallel && d.neighbour >= 0) return {fmt::format("'{}': a neighbour is for via: parallel", key), "neighbour"};
  if (d.via != Via::Parallel && d.fraction != 0) return {fmt::format("'{}': a fraction is for via: parallel", key), "fraction"};
  if (d.evict && (d.via == Via::Dha || d.via == Via::Resident))
    return {fmt::format("'{}': evict is for copies; via: {} copies nothing", key, to_string(d.via)), "evict"};
  if (!d.dha_readers.empty()) {
    if (d.via != Via::Copy && d.via != Via::Parallel)
      return {fmt::format("'{}': dha_readers are for a copy or a parallel transmission; via: {} says how every "
                          "reader gets it", key, to_string(d.via)), "dha_readers"};
    if (!is_gpu(topo, device))
      return {fmt::format("'{}': dha_readers read by direct host access, which needs a GPU, and '{}' is a {}", key,
                          id(topo, device), hw::to_string(topo.devices[device].kind)), "dha_readers"};
    if (plan.buffer_of(d) != HostBuffer::Pinned)
      return {fmt::format("'{}': direct host access reads pinned host memory, not pageable", key), "memory"};
    for (size_t i = 0; i < d.dha_readers.size(); ++i) {
      const int op = d.dha_readers[i];
      bool reads = false;
      for (int e : g.out_edges(param)) reads = reads || g.edges[e].dst == op;
      if (!reads || plan.device_of[op] != device)
        return {fmt::format("'{}': dha_readers lists '{}', which is not an op on '{}' that reads '{}'", key,
                            g.nodes[op].name, id(topo, device), g.nodes[param].name), "dha_readers"};
      if (std::find(d.dha_readers.begin(), d.dha_readers.begin() + static_cast<long>(i), op) !=
          d.dha_readers.begin() + static_cast<long>(i))
        return {fmt::format("'{}': dha_readers lists '{}' twice", key, g.nodes[op].name), "dha_readers"};
    }
  }
  if (d.via == Via::Copy) return {};
  if (d.via == Via::Resident) {
    if (d.source >= 0) return {fmt::format("'{}': a resident parameter comes from no host memory", key), "from"};
    if (d.buffer) return {fmt::format("'{}': a resident parameter has no host buffer", key), "memory"};
    return {};
  }
  if (!is_gpu(topo, device))
    return {fmt::format("'{}': via: {} needs a GPU, and '{}' is a {}", key, to_string(d.via), id(topo, device),
                        hw::to_string(topo.devices[device].kind)),
            "via"};
  if (d.via == Via::Dha) {
    if (plan.buffer_of(d) != HostBuffer::Pinned)
      return {fmt::format("'{}': direct host access reads pinned host memory, not pageable", key), "memory"};
    return {};
  }
  if (!(d.fraction > 0 && d.fraction <= 1))
    return {fmt::format("'{}': via: parallel needs a fraction in (0, 1], got {}", key, d.fraction), "fraction"};
  if (!is_gpu(topo, d.neighbour) || d.neighbour == device)
    return {fmt::format("'{}': the neighbour must be another GPU", key), "neighbour"};
  const int host = param_source(plan, topo, param, device);
  if (host < 0 || !topo.connected(host, d.neighbour) || !topo.connected(d.neighbour, device))
    return {fmt::format("'{}': no route through neighbour '{}'", key, id(topo, d.neighbour)), "neighbour"};
  return {};
}

OptionProblem check_collective_names(const std::vector<PlanCollective>& cs, const models::Graph& g, size_t& at) {
  std::unordered_map<std::string, size_t> first;
  for (at = 0; at < cs.size(); ++at) {
    if (cs[at].name.empty()) return {"a collective needs a name", "name"};
    if (!first.emplace(cs[at].name, at).second) return {fmt::format("collective '{}' is defined twice", cs[at].name), "name"};
  }
  for (const models::Node& n : g.nodes)
    if (auto it = first.find(n.name); it != first.end()) {
      at = it->second;
      return {fmt::format("collective '{}': the name is a node of graph '{}'", n.name, g.name), "name"};
    }
  return {};
}

double collective_tasks(const PlanCollective& c, engine::Fidelity fidelity) {
  const auto n = static_cast<double>(c.group.size());
  switch (fidelity) {
    case engine::Fidelity::Flow: return engine::collective_transfers_estimate(n, c.chunks);
    case engine::Fidelity::Link: return 8 * n;
    case engine::Fidelity::Analytic:
    case engine::Fidelity::Ideal: return n;
  }
  return engine::collective_transfers_estimate(n, c.chunks);
}

std::string check_lowered_size(const Plan& plan, engine::Fidelity fidelity) {
  double items = 0, collective = 0;
  for (const PlanQueue& q : plan.queues) items += static_cast<double>(q.items.size());
  for (const PlanCollective& c : plan.collectives) collective += collective_tasks(c, fidelity);
  if (items + collective <= kMaxLoweredTasks) return "";
  return fmt::format("the plan would lower into about {:.3g} tasks ({:.3g} from its {} collectives), more than the "
                     "{:.0e} one simulation may hold",
                     items + collective, collective, plan.collectives.size(), kMaxLoweredTasks);
}

OptionProblem check_collective(const models::Graph& g, const hw::Topology& topo, const PlanCollective& c) {
  const std::string what = fmt::format("collective '{}'", c.name);
  if (c.group.empty()) return {fmt::format("{}: a group needs at least one member", what), "group"};
  for (size_t i = 0; i < c.group.size(); ++i) {
    if (!topo.devices[c.group[i]].is_compute())
      return {fmt::format("{}: '{}' is not a compute device", what, id(topo, c.group[i])), "group"};
    if (std::find(c.group.begin(), c.group.begin() + i, c.group[i]) != c.group.begin() + i)
      return {fmt::format("{}: '{}' appears more than once in the group", what, id(topo, c.group[i])), "group"};
  }
  if (!(c.bytes > 0)) return {fmt::format("{}: bytes must be positive, got {}", what, c.bytes), "bytes"};
  if (c.chunks < 1) return {fmt::format("{}: chunks must be at least 1, got {}", what, c.chunks), "chunks"};
  if (const double tasks = collective_tasks(c); tasks > kMaxLoweredTasks)
    return {fmt::format("{}: {} chunks over {} ranks would lower into about {:.3g} tasks, more than the {:.0e} one "
                        "simulation may hold",
                        what, c.chunks, c.group.size(), tasks, kMaxLoweredTasks),
            "chunks"};
  for (int op : c.before)
    if (std::find(c.after.begin(), c.after.end(), op) != c.after.end())
      return {fmt::format("{}: op '{}' is both after and before it", what, g.nodes[op].name), "before"};
  try {
    engine::analytic_seconds(collective_spec(c, topo, engine::Fidelity::Analytic), RouteNetwork(topo, {}));
  } catch (const engine::CollectiveOptionError& e) {
    return {e.detail(), e.option()};
  } catch (const InputError& e) {
    return {e.detail(), "algorithm"};
  }
  return {};
}

std::string check_dispatch_threads(const hw::Topology& topo, std::size_t threads) {
  if (!topo.dispatches())
    return fmt::format("the plan says which host thread dispatches each op, but '{}' declares no runtime (a "
                       "`runtime:` block, or a device with a `dispatch` cost)", topo.name);
  if (threads == 0)
    return "the plan's dispatch lists no thread: give each thread's ops in order, or leave dispatch out (one thread, "
           "the default order)";
  if (threads > static_cast<std::size_t>(topo.runtime.dispatch_threads))
    return fmt::format("the plan uses {} dispatch threads, but the runtime of '{}' has {} (runtime: "
                       "{{dispatch_threads: N}})", threads, topo.name, topo.runtime.dispatch_threads);
  return "";
}

std::string check_cpu_cores(const hw::Topology& topo, int device, int cores) {
  const hw::Device& d = topo.devices[device];
  if (d.kind != hw::DeviceKind::Cpu) return fmt::format("cpu_cores: '{}' is not a cpu", d.id);
  if (cores < 1 || cores > d.cores)
    return fmt::format("cpu_cores: '{}' has {} cores, so it can use 1 to {}, not {}", d.id, d.cores, d.cores, cores);
  return "";
}

OptionProblem check_split(const models::Graph& g, const hw::Topology& topo, int op, const PlanSplit& split) {
  using models::Axis;
  const models::Node& node = g.nodes[op];
  if (node.kind != models::NodeKind::Op)
    return {fmt::format("'{}' is a parameter: a plan splits ops (a split op's parameters follow its axis)", node.name), ""};
  const bool replicas = split.axis == Axis::Replicas;
  if (!node.durations.empty() && !replicas)
    return {fmt::format("op '{}' has explicit per-device durations, so it has no shape to split (only to replicate)",
                        node.name),
            ""};
  if (split.slices.empty()) return {fmt::format("split of '{}' has no slices", node.name), "slices"};
  if (split.inner && (replicas || *split.inner == split.axis))
    return {fmt::format("split of '{}': the inner axis must be another axis than '{}' (of its shape, or replicas)",
                        node.name, models::to_string(split.axis)),
            "inner"};
  const bool copies = split.inner == Axis::Replicas;
  double sum = 0;
  for (const PlanSlice& s : split.slices) {
    if (s.device < 0 || s.device >= static_cast<int>(topo.devices.size()) || !topo.devices[s.device].is_compute())
      return {fmt::format("split of '{}': a slice is on a device that does not compute", node.name), "slices"};
    if (replicas && s.share != 1)
      return {fmt::format("split of '{}': a replica is the whole op, so its share is 1, not {}", node.name, s.share),
              "slices"};
    for (double x : {s.share, s.inner_share})
      if (!(x > 0 && x <= 1))
        return {fmt::format("split of '{}': a slice's share must be in (0, 1], got {}", node.name, x), "slices"};
    if (!split.inner && s.inner_share != 1)
      return {fmt::format("split of '{}': a slice has an inner share but the split no inner axis", node.name), "slices"};
    sum += s.share * s.inner_share;
  }
  if (copies) {
    // Runs of c consecutive copies of one part each: the shares sum to c, a whole number that
    // divides the slice count, and a run's slices have one share.
    const double c = std::round(sum);
    const size_t run = c >= 1 ? static_cast<size_t>(c) : 0;
    bool runs = run > 0 && std::abs(sum - c) <= 1e-9 && split.slices.size() % run == 0;
    for (size_t i = 0; runs && i < split.slices.size(); ++i)
      runs = split.slices[i].inner_share == 1 && split.slices[i].share == split.slices[i - i % run].share;
    if (!runs)
      return {fmt::format("split of '{}': with inner replicas the slices must come in runs of c copies of one part "
                          "(equal shares, inner share 1), c the shares' sum, a whole number dividing the {} slices; "
                          "the shares sum to {:.12g}",
                          node.name, split.slices.size(), sum),
              "slices"};
  } else if (!replicas && std::abs(sum - 1) > 1e-9) {
    return {fmt::format("split of '{}': the slices' shares sum to {:.12g}, not 1", node.name, sum), "slices"};
  }
  for (auto [axis, field] : {std::pair{split.axis, "axis"}, std::pair{split.inner.value_or(split.axis), "inner"}}) {
    try {
      models::slice_shape(node.shape, axis, 1);
    } catch (const InputError& e) {
      return {fmt::format("split of '{}': {}", node.name, e.detail()), field};
    }
  }
  return {};
}

}  // namespace placesim::scheduler
