#include "scheduler/plan_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "scheduler/plan_rules.hpp"

namespace placesim::scheduler {
namespace {

using Via = ParamDelivery::Via;
using nlohmann::ordered_json;

ordered_json delivery_json(const Plan& plan, const ParamDelivery& d, const hw::Topology& topo) {
  ordered_json j = ordered_json::object();
  if (d.via != Via::Copy) j["via"] = to_string(d.via);
  if (d.via == Via::Parallel) {
    j["neighbour"] = topo.devices[d.neighbour].id;
    j["fraction"] = d.fraction;
  }
  if (d.source >= 0) j["from"] = topo.devices[d.source].id;
  if (d.buffer) j["memory"] = to_string(plan.buffer_of(d));
  return j;
}

HostBuffer parse_buffer(const Yaml& y) {
  const std::string s = y.str();
  if (s == "pinned") return HostBuffer::Pinned;
  if (s == "pageable") return HostBuffer::Pageable;
  y.fail(fmt::format("memory must be pinned or pageable, got '{}'", s));
}

Via parse_via(const Yaml& y) {
  const std::string s = y.str();
  for (Via v : {Via::Copy, Via::Dha, Via::Parallel})
    if (s == to_string(v)) return v;
  y.fail(fmt::format("via must be copy, dha or parallel, got '{}'", s));
}

int parse_device(const Yaml& y, const hw::Topology& topo) {
  const int d = topo.find(y.str());
  if (d < 0) y.fail(fmt::format("no device '{}' in '{}'", y.str(), topo.name));
  return d;
}

void parse_params(const Yaml& params, Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  for (auto& [key, entry] : params.entries()) {
    const ParsedItem p = parse_item_name(key, g, topo);
    if (!p.error.empty()) entry.fail(p.error);
    if (p.item.kind != PlanItem::Kind::Deliver || g.nodes[p.item.node].kind != models::NodeKind::Param)
      entry.fail(fmt::format("'{}': expected PARAM@DEVICE", key));
    entry.allow_keys({"via", "neighbour", "fraction", "from", "memory"});
    ParamDelivery d;
    if (entry.has("via")) d.via = parse_via(entry.at("via"));
    if (entry.has("neighbour")) d.neighbour = parse_device(entry.at("neighbour"), topo);
    if (entry.has("fraction")) d.fraction = entry.at("fraction").number();
    if (entry.has("from")) d.source = parse_device(entry.at("from"), topo);
    if (entry.has("memory")) d.buffer = parse_buffer(entry.at("memory"));
    const OptionProblem bad = check_delivery(plan, g, topo, p.item.node, p.item.device, d);
    if (!bad.message.empty()) (entry.has(bad.field) ? entry.at(bad.field) : entry).fail(bad.message);
    plan.params[{p.item.node, p.item.device}] = d;
  }
}

}  // namespace

std::string plan_to_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  ordered_json j;
  j["placer"] = plan.placer;
  ordered_json devices = ordered_json::object();
  for (int n : g.topo_order())
    if (g.nodes[n].kind == models::NodeKind::Op && plan.device_of[n] >= 0)
      devices[g.nodes[n].name] = topo.devices[plan.device_of[n]].id;
  j["devices"] = devices;
  if (plan.buffer != HostBuffer::Pinned) j["memory"] = to_string(plan.buffer);
  if (!plan.params.empty()) {
    ordered_json params = ordered_json::object();
    for (auto& [key, d] : plan.params)
      params[g.nodes[key.first].name + "@" + topo.devices[key.second].id] = delivery_json(plan, d, topo);
    j["params"] = params;
  }
  ordered_json queues = ordered_json::array();
  for (const PlanQueue& q : plan.queues) {
    ordered_json tasks = ordered_json::array();
    for (const PlanItem& it : q.items) tasks.push_back(item_name(it, g, topo));
    queues.push_back({{"name", q.name}, {"tasks", tasks}});
  }
  j["queues"] = queues;
  return j.dump(2) + "\n";
}

Plan parse_plan(const Yaml& doc, const models::Graph& g, const hw::Topology& topo) {
  doc.allow_keys({"placer", "devices", "memory", "params", "queues"});
  Plan plan;
  plan.placer = doc.str_or("placer", "file");
  plan.device_of.assign(g.nodes.size(), -1);
  for (auto& [name, dev] : doc.at("devices").entries()) {
    const int n = g.find(name);
    if (n < 0 || g.nodes[n].kind != models::NodeKind::Op)
      dev.fail(fmt::format("'{}' is not an op of graph '{}'", name, g.name));
    const int d = topo.find(dev.str());
    if (d < 0 || !topo.devices[d].is_compute())
      dev.fail(fmt::format("'{}' is not a compute device of '{}'", dev.str(), topo.name));
    plan.device_of[n] = d;
  }
  if (doc.has("memory")) plan.buffer = parse_buffer(doc.at("memory"));
  if (doc.has("params")) parse_params(doc.at("params"), plan, g, topo);
  for (const Yaml& q : doc.at("queues").items()) {
    q.allow_keys({"name", "tasks"});
    PlanQueue pq{q.at("name").str(), {}};
    if (const std::string bad = check_queue(topo, pq.name); !bad.empty()) q.at("name").fail(bad);
    for (const Yaml& t : q.at("tasks").items()) {
      const ParsedItem p = parse_item_name(t.str(), g, topo);
      if (!p.error.empty()) t.fail(p.error);
      if (const std::string bad = check_item(plan, g, topo, pq.name, p.item); !bad.empty()) t.fail(bad);
      pq.items.push_back(p.item);
    }
    plan.queues.push_back(std::move(pq));
  }
  return plan;
}

Plan load_plan_json(const std::string& path, const models::Graph& g, const hw::Topology& topo) {
  return parse_plan(Yaml::load_file(path), g, topo);
}

}  // namespace placesim::scheduler
