#include "scheduler/lower/lower.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

#include "hw/route_cost.hpp"
#include "scheduler/dispatch_order.hpp"
#include "scheduler/lower/lowering.hpp"
#include "scheduler/plan/rules.hpp"
#include "scheduler/plan/slices.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace detail {

using models::NodeKind;
using Via = ParamDelivery::Via;

namespace {

void add_use(engine::UseList& uses, engine::ResourceId r, double amount) {
  for (engine::Use& u : uses)
    if (u.resource == r) {
      u.amount += amount;
      return;
    }
  uses.push_back({r, amount});
}

}  // namespace

void add_route_uses(engine::UseList& uses, const std::vector<engine::ResourceId>& link_resource,
                    const std::vector<hw::Hop>& hops, double bytes) {
  for (const hw::Hop& h : hops) add_use(uses, link_resource[h.link] + (h.forward ? 0 : 1), bytes);
}

void Lowering::check_plan() const {
  if (p.weights == WeightsMode::Resident && !plan.params.empty())
    throw InputError("plan says how parameters travel, but weights are resident");
  for (auto& [key, d] : plan.params)
    if (const OptionProblem bad = check_delivery(plan, g, topo, key.first, key.second, d); !bad.message.empty())
      throw InputError(bad.message);
  size_t at = 0;
  if (const OptionProblem bad = check_collective_names(plan.collectives, g, at); !bad.message.empty())
    throw InputError(bad.message);
  for (const PlanCollective& c : plan.collectives)
    if (const OptionProblem bad = check_collective(g, topo, c); !bad.message.empty()) throw InputError(bad.message);
  for (auto [dev, k] : plan.cpu_cores)
    if (const std::string bad = check_cpu_cores(topo, dev, k); !bad.empty()) throw InputError(bad);
  for (const PlanQueue& q : plan.queues) {
    if (const std::string bad = check_queue(topo, q.name); !bad.empty()) throw InputError(bad);
    const QueueRole role = queue_role(topo, q.name);
    for (const PlanItem& it : q.items)
      if (const std::string bad = check_item(plan, g, topo, q.name, role, it); !bad.empty()) throw InputError(bad);
  }
  if (const std::string bad = check_lowered_size(plan, p.collectives); !bad.empty()) throw InputError(bad);
  if (const DispatchProblem bad = check_dispatch(g, topo, plan); !bad.message.empty()) throw InputError(bad.message);
}

void Lowering::add_resources() {
  engine::TaskGraph& tg = out.graph;
  device_resource.assign(topo.devices.size(), -1);
  memory_resource.assign(topo.devices.size(), -1);
  // Links, copy engines and host memory bandwidth are shared only on a network of links.
  const bool shared = !topo.network_ideal && !topo.network_uncontended;
  for (size_t d = 0; d < topo.devices.size(); ++d) {
    const hw::Device& dev = topo.devices[d];
    if (dev.kind == hw::DeviceKind::HostMemory && dev.memory_bw > 0 && shared) {
      memory_resource[d] = tg.add_resource(dev.id + ".mem", dev.memory_bw);
      out.resource_link.push_back(-1);
    }
    if (!dev.is_compute()) continue;
    if (dev.kind == hw::DeviceKind::Cpu) {  // one resource per core, `<cpu>.core<j>`
      device_resource[d] = static_cast<engine::ResourceId>(tg.resources.size());
      for (int j = 0; j < dev.cores; ++j) {
        tg.add_resource(queue_name(topo, {QueueRole::Kind::Core, static_cast<int>(d), j}), 1.0, !dev.concurrent_kernels);
        out.resource_link.push_back(-1);
      }
      continue;
    }
    device_resource[d] = tg.add_resource(dev.id, 1.0, !dev.concurrent_kernels);
    out.resource_link.push_back(-1);
    if (dev.kind != hw::DeviceKind::Gpu || dev.copy_engine_bw <= 0 || !shared) continue;
    for (auto [kind, count] : {std::pair{QueueRole::Kind::H2d, dev.h2d_engines}, std::pair{QueueRole::Kind::D2h, dev.d2h_engines}})
      for (int k = 0; k < count; ++k) {
        const QueueRole engine{kind, static_cast<int>(d), k};
        engine_resource[{engine.device, kind, k}] = tg.add_resource(queue_name(topo, engine), dev.copy_engine_bw);
        out.resource_link.push_back(-1);
      }
  }
  link_resource.assign(topo.links.size(), -1);
  if (!shared) return;
  for (size_t l = 0; l < topo.links.size(); ++l) {
    const hw::Link& k = topo.links[l];
    const std::string& a = topo.devices[k.a].id;
    const std::string& b = topo.devices[k.b].id;
    link_resource[l] = tg.add_resource(fmt::format("{}:{}->{}", k.id, a, b), k.bw_ab);
    tg.add_resource(fmt::format("{}:{}->{}", k.id, b, a), k.bw_ba);
    out.resource_link.push_back(static_cast<int>(l));
    out.resource_link.push_back(static_cast<int>(l));
  }
}

void Lowering::add_tasks() {
  engine::TaskGraph& tg = out.graph;
  compute.assign(g.nodes.size(), -1);
  // Launches first by what they launch: a launched kernel's duration leaves its launch out, and
  // its launch may come later in the plan's queue order than the kernel.
  size_t k = 0;  // the item's place in the queues: the id its task gets below
  for (const PlanQueue& q : plan.queues)
    for (const PlanItem& it : q.items) {
      if (it.kind == PlanItem::Kind::Launch && !launch.emplace(std::pair{it.node, it.device}, -1).second)
        throw InputError(plan.origin.task(k), fmt::format("plan launches '{}' twice", item_name(it, g, topo)));
      ++k;
    }
  for (const PlanQueue& q : plan.queues) {
    const engine::QueueId qid = tg.add_queue(q.name);
    const QueueRole role = queue_role(topo, q.name);
    for (const PlanItem& it : q.items) {
      const std::string name = item_name(it, g, topo);
      engine::Task t;
      t.queue = qid;
      engine::TaskExtras extras{.op = it.node};
      const engine::TaskId id = static_cast<engine::TaskId>(tg.tasks.size());
      if (it.kind == PlanItem::Kind::Sync) {  // ends when its op does: add_dependencies
        syncs.emplace_back(id, it.node);
        t.kind = engine::TaskKind::Launch;
        tg.add_task(name, std::move(t), extras);
        continue;
      }
      if (it.kind == PlanItem::Kind::Launch) {
        launch[{it.node, it.device}] = id;
        t.kind = engine::TaskKind::Launch;
        t.latency = ceil_ps(launch_seconds(plan, g, topo, it));
        tg.add_task(name, std::move(t), extras);
        continue;
      }
      if (it.kind == PlanItem::Kind::Compute) {
        if (compute[it.node] >= 0)
          throw InputError(plan.origin.task(id), fmt::format("plan computes op '{}' twice", name));
        compute[it.node] = id;
        fill_compute(t, it.node, role);
      } else {
        transfers.push_back(Transfer{it.kind, it.node, it.device, id});
        fill_transfer(t, extras, name, it, role);
      }
      tg.add_task(name, std::move(t), extras);
      if (it.kind != PlanItem::Kind::Compute) add_traffic(id, it);
    }
  }
  sort_transfers();
  for (int n : g.ops())
    if (compute[n] < 0)
      throw InputError(plan.origin.device(n),
                       fmt::format("plan never computes op '{}'", g.nodes[n].name));
}

void Lowering::sort_transfers() {
  std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
    return std::tuple(a.key(), a.task) < std::tuple(b.key(), b.task);
  });
  // An item delivered twice: the error at its second place in the plan (of the first such).
  const Transfer* twice = nullptr;
  for (std::size_t i = 1; i < transfers.size(); ++i)
    if (transfers[i].key() == transfers[i - 1].key() && (!twice || transfers[i].task < twice->task)) twice = &transfers[i];
  if (twice)
    throw InputError(plan.origin.task(twice->task),
                     fmt::format("plan delivers '{}' twice", item_name({twice->kind, twice->node, twice->device}, g, topo)));
}

std::vector<Transfer>::const_iterator Lowering::transfers_from(PlanItem::Kind kind, int node, int device) const {
  return std::lower_bound(transfers.begin(), transfers.end(), std::tuple(kind, node, device),
                          [](const Transfer& t, const auto& k) { return t.key() < k; });
}

engine::TaskId Lowering::find_transfer(PlanItem::Kind kind, int node, int device) const {
  const auto it = transfers_from(kind, node, device);
  return it != transfers.end() && it->key() == std::tuple(kind, node, device) ? it->task : -1;
}

// Only on a network that is not ideal (an ideal one has no routes to cost).
void Lowering::add_route(engine::Task& t, int src, int dst, double bytes) const {
  const hw::RouteRef route = topo.route(src, dst);
  t.latency = std::max(t.latency, ceil_ps(route->latency_s));
  if (bytes > 0 && !topo.network_uncontended) add_route_uses(t.uses, link_resource, route->hops, bytes);
}

// `network: uncontended`: a full mesh. Each ordered pair of devices has a connection of its
// own, of the rate bytes reach alone over the pair's route; the pair's transfers and reads share
// it and nothing else, and a read still overlaps the kernel it feeds.
void Lowering::add_alone(engine::Task& t, int src, int dst, double bytes) {
  if (bytes <= 0) return;
  auto [at, added] = pair_resource.try_emplace({src, dst}, -1);
  if (added) {
    at->second = out.graph.add_resource(fmt::format("{}->{}.alone", topo.devices[src].id, topo.devices[dst].id), alone_rate(src, dst));
    out.resource_link.push_back(-1);
  }
  add_use(t.uses, at->second, bytes);
}

// `network: uncontended`: the rate at which bytes go from src to dst alone: the narrowest of
// the route's hops, the copy engine serving them and the memory bandwidth of a host memory at
// either end (a CPU's: its nearest).
double Lowering::alone_rate(int src, int dst) const {
  double bw = hw::route_cost(topo, src, dst).bandwidth;
  for (int end : {src, dst}) {
    const hw::Device& d = topo.devices[end];
    const int host = d.kind == hw::DeviceKind::Cpu ? topo.host_memory_for(end) : d.kind == hw::DeviceKind::HostMemory ? end : -1;
    if (host >= 0 && topo.devices[host].memory_bw > 0) bw = std::min(bw, topo.devices[host].memory_bw);
  }
  if (const QueueRole engine = copy_engine(topo, {src, dst}, QueueRole{}); engine.kind != QueueRole::Kind::Other)
    if (const double e = topo.devices[engine.device].copy_engine_bw; e > 0) bw = std::min(bw, e);
  return bw;
}

int Lowering::memory_of(int device) const {
  if (device < 0) return -1;
  const int host = topo.devices[device].kind == hw::DeviceKind::Cpu ? topo.host_memory_for(device) : device;
  return host >= 0 && memory_resource[host] >= 0 ? host : -1;
}

void Lowering::add_memory_use(engine::Task& t, int host, double bytes) const {
  if (host >= 0 && bytes > 0) add_use(t.uses, memory_resource[host], bytes);
}

// An op's kernel; with parameters read by direct host access, a Dha task that also moves their
// bytes over the route from host memory (latency: the longest of those routes'). On a CPU whose
// plan uses k cores, d is the cost model's duration on k cores together (d_k): an op on queue
// `<cpu>.core<j>` keeps core j busy for its time on one of k busy cores (Problem::core_duration,
// Chrion's W: k * d_k with the per-op costs paid once), any other op keeps each of cores 0..k-1
// busy for d_k.
void Lowering::fill_compute(engine::Task& t, int n, const QueueRole& queue) {
  const int dev = plan.device_of[n];
  if (dev < 0) throw InputError(fmt::format("plan puts op '{}' on no device", g.nodes[n].name));
  double d = p.duration(n, dev, plan.cores(dev));
  if (d == models::kCannotRun)
    throw InputError(plan.origin.device(n), fmt::format("op '{}' cannot run on '{}'", g.nodes[n].name, topo.devices[dev].id));
  // A launched kernel's Launch task pays the launch the cost model adds to it (an op known by
  // explicit durations has none added: it keeps them).
  if (launch.count({n, -1}) && g.nodes[n].durations.empty()) d = std::max(0.0, d - topo.devices[dev].launch_s);
  t.kind = engine::TaskKind::Compute;
  if (d > 0 && topo.devices[dev].kind == hw::DeviceKind::Cpu) {
    const int k = plan.cores(dev) == 0 ? topo.devices[dev].cores : plan.cores(dev);
    if (queue.kind == QueueRole::Kind::Core) {
      t.uses.push_back({device_resource[dev] + queue.index, p.core_duration(n, dev, k)});
    } else {
      for (int j = 0; j < k; ++j) t.uses.push_back({device_resource[dev] + j, d});
    }
  } else if (d > 0) {
    t.uses.push_back({device_resource[dev], d});
  }
  if (p.weights != WeightsMode::Host) return;
  for (int e : g.in_edges(n)) {
    const int w = g.edges[e].src;
    if (g.nodes[w].kind != NodeKind::Param || !plan.delivery(w, dev).read_by_dha(n)) continue;
    if (g.edges[e].time_s)
      throw InputError(fmt::format("'{}@{}' is read by direct host access, which needs bytes, not a fixed time",
                                   g.nodes[w].name, topo.devices[dev].id));
    t.kind = engine::TaskKind::Dha;
    // A gather reads the rows it looks up, any other op the whole parameter.
    const double read = models::param_read_bytes(g.nodes[n].shape, g.dtype, g.edges[e].bytes);
    t.bytes += read;
    if (topo.network_ideal) continue;
    const int host = param_source(plan, topo, w, dev);
    if (host < 0) throw InputError(fmt::format("weights: host, but '{}' has no host memory", topo.name));
    add_route(t, host, dev, read);
    add_memory_use(t, memory_of(host), read);
    if (topo.network_uncontended) add_alone(t, host, dev, read);
  }
}

double Lowering::share(const PlanItem& it) const {
  if (g.nodes[it.node].kind != NodeKind::Param) return 1;
  const ParamDelivery d = plan.delivery(it.node, it.device);
  if (d.via != Via::Parallel) return 1;
  return it.kind == PlanItem::Kind::Deliver ? 1 - d.fraction : d.fraction;
}

// A Transfer over the route between the item's ends, waiting the route latency first; it also
// uses the copy engine that serves it and the memory bandwidth of a host memory at either end (a
// CPU's: its nearest host memory's), and a pageable parameter copy is capped at the host
// memory's pageable_bw. Edges with a fixed time make it a task of the shortest of their times and
// no resource use (add_dependencies makes each longer edge wait the rest); `network: ideal` makes
// byte edges free. With byte edges it moves the largest of their bytes: one copy of the data
// serves every consumer on the device.
const OutEdges::ToDevice* OutEdges::to(int device) const {
  const auto it = std::lower_bound(to_device.begin(), to_device.end(), device,
                                   [](const ToDevice& t, int d) { return t.device < d; });
  return it != to_device.end() && it->device == device ? &*it : nullptr;
}

const OutEdges& Lowering::out_edges(int n) {
  constexpr std::size_t kKeptFrom = 16;  // edges; below, a scan costs less than a map entry
  const auto& edge_ids = g.out_edges(n);
  const bool keep = edge_ids.size() >= kKeptFrom;
  if (keep)
    if (auto it = out_edges_kept_.find(n); it != out_edges_kept_.end()) return it->second;
  OutEdges& sum = keep ? out_edges_kept_[n] : out_edges_scratch_;
  sum.max_bytes = 0;
  sum.to_device.clear();
  for (int e : edge_ids) {
    const models::Edge& edge = g.edges[e];
    if (g.nodes[edge.dst].kind != NodeKind::Op) continue;
    sum.max_bytes = std::max(sum.max_bytes, edge.bytes);
    sum.to_device.push_back({plan.device_of[edge.dst], edge.bytes, edge.time_s});
  }
  // One record per device: the most bytes, the shortest fixed time.
  std::sort(sum.to_device.begin(), sum.to_device.end(), [](const auto& a, const auto& b) { return a.device < b.device; });
  std::size_t kept = 0;
  for (const OutEdges::ToDevice& t : sum.to_device) {
    if (kept > 0 && sum.to_device[kept - 1].device == t.device) {
      OutEdges::ToDevice& to = sum.to_device[kept - 1];
      to.bytes = std::max(to.bytes, t.bytes);
      if (t.fixed) to.fixed = std::min(to.fixed.value_or(*t.fixed), *t.fixed);
    } else {
      sum.to_device[kept++] = t;
    }
  }
  sum.to_device.resize(kept);
  return sum;
}

void Lowering::fill_transfer(engine::Task& t, engine::TaskExtras& extras, const std::string& name, const PlanItem& it,
                             const QueueRole& queue) {
  const int n = it.node, dev = it.device;
  const bool param = g.nodes[n].kind == NodeKind::Param;
  if (param && p.weights == WeightsMode::Resident)
    throw InputError(fmt::format("plan copies '{}', but weights are resident", name));
  if (!param && plan.device_of[n] == dev)
    throw InputError(plan.origin.task(static_cast<size_t>(out.graph.tasks.size())),
                     fmt::format("plan delivers '{}' to the device that produced it ('{}' runs on {}): take '{}' out of "
                                 "its queue, or give the plan only `devices` and the plan builder lays out the "
                                 "deliveries",
                                 name, g.nodes[n].name, topo.devices[dev].id, name));
  // The edges this delivery serves: a fixed time wins over bytes. A parameter copied where no op
  // reads it (to be forwarded from there) moves what its readers elsewhere get.
  const OutEdges& edges = out_edges(n);
  const OutEdges::ToDevice* here = edges.to(dev);
  double bytes = here ? here->bytes : 0;
  const std::optional<double> fixed = here ? here->fixed : std::nullopt;
  if (param && !here) bytes = edges.max_bytes;
  t.kind = engine::TaskKind::Transfer;
  if (fixed) {
    t.latency = ceil_ps(*fixed);
    return;
  }
  t.bytes = bytes * share(it);
  // A parallel transmission that stages the whole parameter moves nothing over the device's own
  // route: that part is no transfer, and costs no latency.
  if (topo.network_ideal || share(it) == 0) return;
  const Ends ends = transfer_ends(plan, g, topo, it);
  if (ends.src < 0) throw InputError(fmt::format("weights: host, but '{}' has no host memory", topo.name));
  add_route(t, ends.src, ends.dst, t.bytes);
  if (t.bytes <= 0) return;
  const double pageable_bw = topo.devices[ends.src].pageable_bw;
  const bool pageable = param && it.kind != PlanItem::Kind::Forward && pageable_bw > 0 &&
                        plan.buffer_of(plan.delivery(n, dev)) == HostBuffer::Pageable;
  if (topo.network_uncontended) {  // the full mesh's connection between its ends
    add_alone(t, ends.src, ends.dst, t.bytes);
    if (pageable) extras.rate_cap = pageable_bw / t.bytes;
    return;
  }
  // Both ends in one host memory (a parameter "copied" to the CPU that reads it): its bytes
  // cross that memory once.
  const int src_memory = memory_of(ends.src), dst_memory = memory_of(ends.dst);
  add_memory_use(t, src_memory, t.bytes);
  if (dst_memory != src_memory) add_memory_use(t, dst_memory, t.bytes);
  const QueueRole engine = copy_engine(topo, ends, queue);
  if (auto r = engine_resource.find({engine.device, engine.kind, engine.index}); r != engine_resource.end())
    t.uses.push_back({r->second, t.bytes});
  if (pageable) extras.rate_cap = pageable_bw / t.bytes;
}

// A delivery's bytes from the data's source to where it goes, for the communication metric. A
// fixed-time edge moves no bytes; a parameter with no host memory (on an ideal network) has no
// source to count them for.
void Lowering::add_traffic(engine::TaskId id, const PlanItem& it) {
  const double bytes = out.graph.tasks[id].bytes;
  const Ends ends = transfer_ends(plan, g, topo, it);
  if (bytes <= 0 || ends.src < 0) return;
  const bool param = g.nodes[it.node].kind == NodeKind::Param;
  out.graph.traffic.push_back({id, ends.src, ends.dst, param ? "parameter" : "activation", bytes});
}

engine::TaskId Lowering::needed(PlanItem::Kind kind, int node, int device, int for_op) const {
  const engine::TaskId id = find_transfer(kind, node, device);
  if (id < 0)
    throw InputError(plan.origin.task(for_op >= 0 ? compute[for_op] : find_transfer(PlanItem::Kind::Forward, node, device)),
                     fmt::format("plan has no delivery '{}' needed by {}", item_name({kind, node, device}, g, topo),
                                 for_op >= 0 ? "op '" + g.nodes[for_op].name + "'"
                                             : "'" + item_name({PlanItem::Kind::Forward, node, device}, g, topo) + "'"));
  return id;
}

// What a parallel transmission's forward leg to `device` waits for: its stage on the neighbour,
// or, where the plan stages nothing, the neighbour's own copy of the whole parameter (kept to
// the end, so that it is there to forward).
engine::TaskId Lowering::forwarded_from(int param, int device) const {
  if (const engine::TaskId stage = find_transfer(PlanItem::Kind::Stage, param, device); stage >= 0) return stage;
  const int neighbour = plan.delivery(param, device).neighbour;
  const ParamDelivery own = plan.delivery(param, neighbour);
  const engine::TaskId copy = find_transfer(PlanItem::Kind::Deliver, param, neighbour);
  if (copy < 0 || own.via != Via::Copy || own.evict)
    throw InputError(plan.origin.task(find_transfer(PlanItem::Kind::Forward, param, device)),
                     fmt::format("plan forwards '{}' but neither stages it ('{}') nor keeps a copy of it on '{}' to "
                                 "forward ('{}', via copy, not evicted)",
                                 item_name({PlanItem::Kind::Forward, param, device}, g, topo),
                                 item_name({PlanItem::Kind::Stage, param, device}, g, topo), topo.devices[neighbour].id,
                                 item_name({PlanItem::Kind::Deliver, param, neighbour}, g, topo)));
  return copy;
}

// The task after which edge e's data is on its consumer's device, given the delivery that brings
// it: the delivery itself, unless the edge has a fixed time longer than the delivery's (the
// shortest of the edges it serves): then a task waiting the difference after it, on a queue of
// its own (`src@dev>dst`), so each edge takes exactly its own time (HEFT's model).
engine::TaskId Lowering::edge_arrival(int e, engine::TaskId delivery) {
  engine::TaskGraph& tg = out.graph;
  const models::Edge& edge = g.edges[e];
  if (!edge.time_s) return delivery;
  const TimePs extra = ceil_ps(*edge.time_s) - tg.tasks[delivery].latency;
  if (extra <= 0) return delivery;
  const std::string name = std::string(tg.name(delivery)) + ">" + g.nodes[edge.dst].name;
  engine::Task t;
  t.kind = engine::TaskKind::Transfer;
  t.queue = tg.add_queue(name);
  t.deps = {delivery};
  t.latency = extra;
  return tg.add_task(name, std::move(t));
}

void Lowering::add_dependencies() {
  engine::TaskGraph& tg = out.graph;
  for (int n : g.ops()) {
    // Built apart and moved in at the end: edge_arrival adds tasks, which may move tg.tasks
    // (a reference to this op's list held across it wrote into freed memory).
    engine::DepList deps = std::move(tg.tasks[compute[n]].deps);
    const int dev = plan.device_of[n];
    for (int e : g.in_edges(n)) {
      const int src = g.edges[e].src;
      if (g.nodes[src].kind == NodeKind::Param) {
        if (p.weights != WeightsMode::Host) continue;
        const ParamDelivery d = plan.delivery(src, dev);
        if (d.read_by_dha(n) || d.via == Via::Resident) continue;
        deps.push_back(needed(PlanItem::Kind::Deliver, src, dev, n));
        if (d.via == Via::Parallel) deps.push_back(needed(PlanItem::Kind::Forward, src, dev, n));
      } else if (plan.device_of[src] == dev) {
        deps.push_back(compute[src]);
      } else {
        deps.push_back(edge_arrival(e, needed(PlanItem::Kind::Deliver, src, dev, n)));
      }
    }
    if (auto l = launch.find({n, -1}); l != launch.end()) deps.push_back(l->second);
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    tg.tasks[compute[n]].deps = std::move(deps);
  }
  for (auto [id, op] : syncs) tg.tasks[id].deps.push_back(compute[op]);
  for (auto [key, id] : launch) {
    if (key.second < 0) continue;
    const engine::TaskId t = find_transfer(PlanItem::Kind::Deliver, key.first, key.second);
    if (t < 0)
      throw InputError(plan.origin.task(id), fmt::format("plan launches '{}' but never delivers it",
                                   item_name({PlanItem::Kind::Launch, key.first, key.second}, g, topo)));
    tg.tasks[t].deps.push_back(id);
  }
  for (const Transfer& tr : transfers) {
    const auto [kind, node, dev, id] = tr;
    if (kind == PlanItem::Kind::Forward) tg.tasks[id].deps.push_back(forwarded_from(node, dev));
    if (kind == PlanItem::Kind::Stage && find_transfer(PlanItem::Kind::Forward, node, dev) < 0)
      throw InputError(plan.origin.task(id),
                       fmt::format("plan stages '{}' but never forwards it", item_name({kind, node, dev}, g, topo)));
    if (g.nodes[node].kind == NodeKind::Op) tg.tasks[id].deps.push_back(compute[node]);
  }
}

}  // namespace detail

namespace {

// The plan's splits are well formed and its slices sit where their splits put them.
void check_splits(const Problem& p, const Plan& plan) {
  const models::Graph& g = *p.graph;
  for (auto& [op, split] : plan.splits)
    if (const OptionProblem bad = check_split(g, *p.topo, op, split); !bad.message.empty()) throw InputError(bad.message);
  const std::map<int, std::vector<int>> slices = slice_ids(g, plan.splits);
  size_t nodes = g.nodes.size();
  for (auto& [_, ids] : slices) nodes += ids.size() - 1;
  PLACESIM_ASSERT(plan.device_of.size() == nodes, "plan does not match the graph");
  for (auto& [op, split] : plan.splits) {
    const std::vector<int>& ids = slices.at(op);
    for (size_t i = 0; i < ids.size(); ++i)
      if (plan.device_of[ids[i]] != split.slices[i].device)
        throw InputError(fmt::format("plan puts slice {} of '{}' on a device its split does not give it ('{}')", i,
                                     g.nodes[op].name, p.topo->devices[split.slices[i].device].id));
  }
}

}  // namespace

Lowered lower(const Problem& original, const Plan& plan) {
  check_splits(original, plan);
  const Problem p = sliced_problem(original, plan);
  detail::Lowering l(p, plan);
  l.check_plan();
  l.add_resources();
  l.add_pools();
  l.add_tasks();
  l.add_dependencies();
  l.add_collectives();
  l.add_dispatch();
  l.add_memory();
  l.out.graph.validate();
  return std::move(l.out);
}

}  // namespace placesim::scheduler
