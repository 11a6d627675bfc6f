#include "scheduler/plan/json.hpp"

#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "scheduler/dispatch_order.hpp"
#include "scheduler/plan/rules.hpp"
#include "scheduler/plan/slices.hpp"

namespace placesim::scheduler {
namespace {

using Via = ParamDelivery::Via;
using nlohmann::ordered_json;

// Appends a member whose key is known to be new (op names, PARAM@DEVICE pairs): operator[]
// would look for the key first, a scan that makes writing an object of n members cost n^2.
void append_member(ordered_json& object, std::string key, ordered_json value) {
  object.get_ref<ordered_json::object_t&>().emplace_back(std::move(key), std::move(value));
}

ordered_json delivery_json(const Plan& plan, const ParamDelivery& d, const models::Graph& g, const hw::Topology& topo) {
  ordered_json j = ordered_json::object();
  if (d.via != Via::Copy) j["via"] = to_string(d.via);
  if (d.via == Via::Parallel) {
    j["neighbour"] = topo.devices[d.neighbour].id;
    j["fraction"] = d.fraction;
  }
  if (d.source >= 0) j["from"] = topo.devices[d.source].id;
  if (d.buffer) j["memory"] = to_string(plan.buffer_of(d));
  if (d.evict) j["evict"] = true;
  if (!d.dha_readers.empty()) {
    ordered_json readers = ordered_json::array();
    for (int op : d.dha_readers) readers.push_back(g.nodes[op].name);
    j["dha_readers"] = std::move(readers);
  }
  return j;
}

HostBuffer parse_buffer(const Json& y) {
  const std::string s = y.str();
  if (s == "pinned") return HostBuffer::Pinned;
  if (s == "pageable") return HostBuffer::Pageable;
  y.fail(fmt::format("memory must be pinned or pageable, got '{}'", s));
}

Via parse_via(const Json& y) {
  const std::string s = y.str();
  for (Via v : {Via::Copy, Via::Dha, Via::Parallel, Via::Resident})
    if (s == to_string(v)) return v;
  y.fail(fmt::format("via must be copy, dha, parallel or resident, got '{}'", s));
}

int parse_device(const Json& y, const hw::Topology& topo) {
  const int d = topo.find(y.view());
  if (d < 0) y.fail(fmt::format("no device '{}' in '{}'", y.str(), topo.name));
  return d;
}

void parse_params(const Json& params, Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  for (auto& [key, entry] : params.entries()) {
    const ParsedItem p = parse_item_name(key, g, topo);
    if (!p.error.empty()) entry.fail(p.error);
    if (p.item.kind != PlanItem::Kind::Deliver || g.nodes[p.item.node].kind != models::NodeKind::Param)
      entry.fail(fmt::format("'{}': expected PARAM@DEVICE", key));
    entry.allow_keys({"via", "neighbour", "fraction", "from", "memory", "evict", "dha_readers"});
    ParamDelivery d;
    if (entry.has("via")) d.via = parse_via(entry.at("via"));
    if (entry.has("neighbour")) d.neighbour = parse_device(entry.at("neighbour"), topo);
    if (entry.has("fraction")) d.fraction = entry.at("fraction").number();
    if (entry.has("from")) d.source = parse_device(entry.at("from"), topo);
    if (entry.has("memory")) d.buffer = parse_buffer(entry.at("memory"));
    if (entry.has("evict")) d.evict = entry.at("evict").boolean();
    if (entry.has("dha_readers"))
      for (const Json& op : entry.at("dha_readers").items()) {
        const int n = g.find(op.str());
        if (n < 0 || g.nodes[n].kind != models::NodeKind::Op) op.fail(fmt::format("'{}' is not an op of graph '{}'", op.str(), g.name));
        d.dha_readers.push_back(n);
      }
    const OptionProblem bad = check_delivery(plan, g, topo, p.item.node, p.item.device, d);
    if (!bad.message.empty()) (entry.has(bad.field) ? entry.at(bad.field) : entry).fail(bad.message);
    plan.params[{p.item.node, p.item.device}] = d;
  }
}

// An op of the sliced graph `sg` by name, or every slice of a split op by the op's name.
std::vector<int> parse_ops(const Json& y, const models::Graph& g, const models::Graph& sg,
                           const std::map<int, std::vector<int>>& slices) {
  if (const int n = g.find(y.str()); n >= 0)
    if (auto it = slices.find(n); it != slices.end() && g.nodes[n].kind == models::NodeKind::Op) return it->second;
  const int n = sg.find(y.str());
  if (n < 0 || sg.nodes[n].kind != models::NodeKind::Op) y.fail(fmt::format("'{}' is not an op of graph '{}'", y.str(), g.name));
  return {n};
}

int parse_count(const Json& y, int least = 1) {
  const std::int64_t k = y.integer();
  if (k < least || k > std::numeric_limits<int>::max())
    y.fail(fmt::format("expected a whole number >= {}, got '{}'", least, y.str()));
  return static_cast<int>(k);
}

void parse_collectives(const Json& list, Plan& plan, const models::Graph& g, const models::Graph& sg,
                       const std::map<int, std::vector<int>>& slices, const hw::Topology& topo,
                       engine::Fidelity fidelity) {
  const std::vector<Json> items = list.items();
  for (const Json& c : items) {
    c.allow_keys(
        {"name", "op", "algorithm", "group", "bytes", "chunks", "weights", "groups", "senders", "after", "before"});
    PlanCollective pc;
    pc.name = c.at("name").str();
    plan.origin.add_collective(c.line(), c.column());
    try {
      pc.op = engine::parse_collective_op(c.at("op").str());
    } catch (const InputError& e) {
      c.at("op").fail(e.detail());
    }
    pc.algorithm = c.str_or("algorithm", pc.algorithm);
    for (const Json& m : c.at("group").items()) pc.group.push_back(parse_device(m, topo));
    pc.bytes = c.at("bytes").bytes();
    if (c.has("chunks")) pc.chunks = parse_count(c.at("chunks"));
    if (c.has("weights"))
      for (const Json& w : c.at("weights").items()) pc.weights.push_back(w.positive_number());
    if (c.has("groups"))
      for (const Json& t : c.at("groups").items()) pc.groups.push_back(parse_count(t, 0));
    if (c.has("senders")) pc.senders = parse_count(c.at("senders"));
    for (auto [key, ops] : {std::pair{"after", &pc.after}, std::pair{"before", &pc.before}})
      if (c.has(key))
        for (const Json& op : c.at(key).items())
          for (int n : parse_ops(op, g, sg, slices)) ops->push_back(n);
    const OptionProblem bad = check_collective(sg, topo, pc);
    if (!bad.message.empty()) (c.has(bad.field) ? c.at(bad.field) : c).fail(bad.message);
    plan.collectives.push_back(std::move(pc));
  }
  size_t at = 0;
  if (const OptionProblem bad = check_collective_names(plan.collectives, sg, at); !bad.message.empty())
    items[at].at("name").fail(bad.message);
  if (const std::string bad = check_lowered_size(plan, fidelity); !bad.empty()) list.fail(bad);  // queues come later
}

void parse_cpu_cores(const Json& map, Plan& plan, const hw::Topology& topo) {
  for (auto& [id, k] : map.entries()) {
    const int d = topo.find(id);
    if (d < 0) k.fail(fmt::format("no device '{}' in '{}'", id, topo.name));
    const int cores = parse_count(k);
    if (const std::string bad = check_cpu_cores(topo, d, cores); !bad.empty()) k.fail(bad);
    plan.cpu_cores[d] = cores;
  }
}

// `dispatch: [[op, ...], ...]`: per dispatch thread, its ops in order; every op once
// (check_dispatch, located at the entry at fault or the list).
void parse_dispatch(const Json& list, Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  const std::vector<Json> threads = list.items();
  if (threads.empty()) list.fail(check_dispatch_threads(topo, 0));  // an empty plan.dispatch means the default
  std::vector<std::vector<Json>> names;
  for (const Json& t : threads) {
    std::vector<int>& ops = plan.dispatch.emplace_back();
    for (const Json& name : names.emplace_back(t.items())) {
      const int op = g.find(name.view());
      if (op < 0 || g.nodes[op].kind != models::NodeKind::Op)
        name.fail(fmt::format("'{}' is not an op of the plan's graph", name.view()));
      ops.push_back(op);
    }
  }
  if (const DispatchProblem bad = check_dispatch(g, topo, plan); !bad.message.empty())
    (bad.thread < 0 ? list : names[bad.thread][bad.index]).fail(bad.message);
}

models::Axis parse_axis_at(const Json& y) {
  try {
    return models::parse_axis(y.str());
  } catch (const InputError& e) {
    y.fail(e.detail());
  }
}

void parse_splits(const Json& map, Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  for (auto& [name, entry] : map.entries()) {
    const int n = g.find(name);
    if (n < 0) entry.fail(fmt::format("'{}' is not an op of graph '{}'", name, g.name));
    entry.allow_keys({"axis", "inner", "slices"});
    PlanSplit split;
    split.axis = parse_axis_at(entry.at("axis"));
    if (entry.has("inner")) split.inner = parse_axis_at(entry.at("inner"));
    const bool replicas = split.axis == models::Axis::Replicas;
    for (const Json& s : entry.at("slices").items()) {
      s.allow_keys({"device", "share", "inner_share"});
      PlanSlice slice{parse_device(s.at("device"), topo), replicas && !s.has("share") ? 1.0 : s.at("share").number()};
      if (s.has("inner_share")) slice.inner_share = s.at("inner_share").number();
      split.slices.push_back(slice);
    }
    const OptionProblem bad = check_split(g, topo, n, split);
    if (!bad.message.empty()) (entry.has(bad.field) ? entry.at(bad.field) : entry).fail(bad.message);
    plan.splits[n] = std::move(split);
  }
}

ordered_json split_json(const PlanSplit& split, const hw::Topology& topo) {
  ordered_json j;
  j["axis"] = models::to_string(split.axis);
  if (split.inner) j["inner"] = models::to_string(*split.inner);
  ordered_json slices = ordered_json::array();
  for (const PlanSlice& s : split.slices) {
    ordered_json slice = {{"device", topo.devices[s.device].id}};
    if (split.axis != models::Axis::Replicas) slice["share"] = s.share;
    if (split.inner) slice["inner_share"] = s.inner_share;
    slices.push_back(slice);
  }
  j["slices"] = slices;
  return j;
}

ordered_json collective_json(const PlanCollective& c, const models::Graph& g, const hw::Topology& topo) {
  auto names = [&](const std::vector<int>& ops) {
    ordered_json a = ordered_json::array();
    for (int op : ops) a.push_back(g.nodes[op].name);
    return a;
  };
  ordered_json j;
  j["name"] = c.name;
  j["op"] = engine::to_string(c.op);
  j["algorithm"] = c.algorithm;
  ordered_json group = ordered_json::array();
  for (int d : c.group) group.push_back(topo.devices[d].id);
  j["group"] = group;
  j["bytes"] = c.bytes;
  if (c.chunks != 1) j["chunks"] = c.chunks;
  if (!c.weights.empty()) j["weights"] = c.weights;
  if (!c.groups.empty()) j["groups"] = c.groups;
  if (c.senders != 1) j["senders"] = c.senders;
  if (!c.after.empty()) j["after"] = names(c.after);
  if (!c.before.empty()) j["before"] = names(c.before);
  return j;
}

}  // namespace

nlohmann::ordered_json plan_json(const Plan& plan, const models::Graph& original, const hw::Topology& topo) {
  // Every name but the split ops' is the sliced graph's.
  std::optional<models::Graph> sliced;
  if (!plan.splits.empty()) sliced = slice_graph(original, plan);
  const models::Graph& g = sliced ? *sliced : original;
  ordered_json j;
  j["placer"] = plan.placer;
  ordered_json devices = ordered_json::object();
  for (int n : original.topo_order())
    if (original.nodes[n].kind == models::NodeKind::Op && plan.device_of[n] >= 0 && !plan.splits.count(n))
      append_member(devices, original.nodes[n].name, topo.devices[plan.device_of[n]].id);
  j["devices"] = devices;
  if (!plan.splits.empty()) {
    ordered_json splits = ordered_json::object();
    for (auto& [op, split] : plan.splits) append_member(splits, original.nodes[op].name, split_json(split, topo));
    j["splits"] = splits;
  }
  if (plan.buffer != HostBuffer::Pinned) j["memory"] = to_string(plan.buffer);
  if (!plan.params.empty()) {
    ordered_json params = ordered_json::object();
    for (auto& [key, d] : plan.params)
      append_member(params, g.nodes[key.first].name + "@" + topo.devices[key.second].id, delivery_json(plan, d, g, topo));
    j["params"] = params;
  }
  if (!plan.cpu_cores.empty()) {
    ordered_json cores = ordered_json::object();
    for (auto [d, k] : plan.cpu_cores) cores[topo.devices[d].id] = k;
    j["cpu_cores"] = cores;
  }
  if (!plan.dispatch.empty()) {
    ordered_json threads = ordered_json::array();
    for (const std::vector<int>& ops : plan.dispatch) {
      ordered_json names = ordered_json::array();
      for (int op : ops) names.push_back(g.nodes[op].name);
      threads.push_back(names);
    }
    j["dispatch"] = threads;
  }
  if (!plan.collectives.empty()) {
    ordered_json list = ordered_json::array();
    for (const PlanCollective& c : plan.collectives) list.push_back(collective_json(c, g, topo));
    j["collectives"] = list;
  }
  ordered_json queues = ordered_json::array();
  for (const PlanQueue& q : plan.queues) {
    if (q.items.empty()) continue;  // orders nothing; a plan file refuses one (a slip of an edit)
    ordered_json tasks = ordered_json::array();
    for (const PlanItem& it : q.items) tasks.push_back(item_name(it, g, topo));
    queues.push_back({{"name", q.name}, {"tasks", tasks}});
  }
  j["queues"] = queues;
  return j;
}

std::string plan_to_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  return plan_json(plan, g, topo).dump(2) + "\n";
}

Plan parse_plan(const Json& doc, const models::Graph& original, const hw::Topology& topo, engine::Fidelity fidelity) {
  doc.allow_keys({"placer", "devices", "splits", "memory", "params", "cpu_cores", "dispatch", "collectives", "queues"});
  if (!doc.has("queues"))
    for (const char* key : {"splits", "params", "cpu_cores", "dispatch", "collectives"})
      if (doc.has(key))
        doc.at(key).fail(fmt::format("a plan without `queues` gives only `devices` (and `memory`): the plan builder "
                                     "lays out the queues, copies and deliveries; to give `{}`, give `queues` too "
                                     "(placesim plan writes a full plan to start from)",
                                     key));
  Plan plan;
  plan.placer = doc.str_or("placer", "file");
  if (doc.has("splits")) parse_splits(doc.at("splits"), plan, original, topo);
  // The sliced graph's nodes name everything below; its edges need the collectives (the joins).
  const std::map<int, std::vector<int>> slices = slice_ids(original, plan.splits);
  models::Graph nodes;
  try {
    if (!plan.splits.empty()) nodes = slice_nodes(original, plan.splits);
  } catch (const InputError& e) {  // a slice's name taken by a node (as slice_graph finds below)
    doc.at("splits").fail(e.detail());
  }
  plan.device_of.assign(plan.splits.empty() ? original.nodes.size() : nodes.nodes.size(), -1);
  plan.origin.set_file(doc.file());
  if (doc.has("splits"))  // each slice's device, given by its entry under the split op
    for (auto& [name, entry] : doc.at("splits").entries()) {
      const int op = original.find(name);
      const std::vector<Json> given = entry.at("slices").items();
      for (size_t i = 0; i < given.size(); ++i) {
        plan.device_of[slices.at(op)[i]] = plan.splits.at(op).slices[i].device;
        plan.origin.add_device(slices.at(op)[i], given[i].line(), given[i].column());
      }
    }
  int next = 0;  // written in topological order, most often the nodes' order
  for (auto& [name, dev] : doc.at("devices").entries()) {
    const int n = original.find(name, next);
    next = n + 1;
    if (n < 0 || original.nodes[n].kind != models::NodeKind::Op)
      dev.fail(fmt::format("'{}' is not an op of graph '{}'", name, original.name));
    if (plan.splits.count(n)) dev.fail(fmt::format("'{}' is split: its slices' devices are under `splits`", name));
    const int d = topo.find(dev.view());
    if (d < 0 || !topo.devices[d].is_compute())
      dev.fail(fmt::format("'{}' is not a compute device of '{}'", dev.view(), topo.name));
    plan.device_of[n] = d;
    plan.origin.add_device(n, dev.line(), dev.column());
  }
  if (doc.has("memory")) plan.buffer = parse_buffer(doc.at("memory"));
  if (doc.has("cpu_cores")) parse_cpu_cores(doc.at("cpu_cores"), plan, topo);
  if (doc.has("collectives"))
    parse_collectives(doc.at("collectives"), plan, original, plan.splits.empty() ? original : nodes, slices, topo,
                      fidelity);
  std::optional<models::Graph> sliced;
  if (!plan.splits.empty()) {
    try {
      sliced = slice_graph(original, plan);
    } catch (const InputError& e) {
      doc.at("splits").fail(e.detail());
    }
  }
  const models::Graph& g = sliced ? *sliced : original;
  if (doc.has("params")) parse_params(doc.at("params"), plan, g, topo);
  if (doc.has("dispatch")) parse_dispatch(doc.at("dispatch"), plan, g, topo);
  if (!doc.has("queues")) {  // a plan a person writes: devices only (complete_plan lays out the rest)
    for (int op : original.ops())
      if (plan.device_of[op] < 0)
        doc.at("devices").fail(fmt::format("op '{}' has no device (a plan without `queues` places every op)",
                                           original.nodes[op].name));
    return plan;
  }
  std::map<std::string, SourceLoc> queue_given;  // queue name -> its entry, for a second one
  for (const Json& q : doc.at("queues").items()) {
    q.allow_keys({"name", "tasks"});
    PlanQueue pq{q.at("name").str(), {}};
    if (const std::string bad = check_queue(topo, pq.name); !bad.empty()) q.at("name").fail(bad);
    if (auto [first, fresh] = queue_given.emplace(pq.name, q.loc()); !fresh)
      q.at("name").fail(fmt::format("queue '{}' is given twice (first at {}): one entry per queue, its tasks in order",
                                    pq.name, first->second.str()));
    const QueueRole role = queue_role(topo, pq.name);
    const std::vector<Json> tasks = q.at("tasks").items();
    if (tasks.empty()) q.at("tasks").fail(fmt::format("queue '{}' has no tasks: leave it out", pq.name));
    pq.items.reserve(tasks.size());
    // A device's queue names its ops in the order they run, not the graph's: each node is asked
    // for a few items ahead (by the name before any '@', which most items are).
    models::Graph::Lookahead ahead(g);
    const auto node_at = [&](std::size_t k) -> std::optional<std::string_view> {
      if (!tasks[k].is_scalar()) return std::nullopt;
      const std::string_view s = tasks[k].view();
      return s.substr(0, s.rfind('@'));
    };
    for (std::size_t k = 0; k < tasks.size(); ++k) {
      ahead.before(k, tasks.size(), node_at);
      const Json& t = tasks[k];
      const ParsedItem p = parse_item_name(t.view(), g, topo);
      if (!p.error.empty()) t.fail(p.error);
      if (const std::string bad = check_item(plan, g, topo, pq.name, role, p.item); !bad.empty()) t.fail(bad);
      pq.items.push_back(p.item);
      plan.origin.add_task(t.line(), t.column());
    }
    plan.queues.push_back(std::move(pq));
  }
  return plan;
}

Plan load_plan_json(const std::string& path, const models::Graph& g, const hw::Topology& topo,
                    engine::Fidelity fidelity) {
  return parse_plan(Json::load_file(path), g, topo, fidelity);
}

}  // namespace placesim::scheduler
