#include "scheduler/plan_json.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace placesim::scheduler {

static std::string item_name(const PlanItem& it, const models::Graph& g, const hw::Topology& topo) {
  if (it.kind == PlanItem::Kind::Compute) return g.nodes[it.node].name;
  return g.nodes[it.node].name + "@" + topo.devices[it.device].id;
}

std::string plan_to_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo) {
  nlohmann::ordered_json j;
  j["placer"] = plan.placer;
  nlohmann::ordered_json devices = nlohmann::ordered_json::object();
  for (int n : g.topo_order())
    if (g.nodes[n].kind == models::NodeKind::Op && plan.device_of[n] >= 0)
      devices[g.nodes[n].name] = topo.devices[plan.device_of[n]].id;
  j["devices"] = devices;
  nlohmann::ordered_json queues = nlohmann::ordered_json::array();
  for (const PlanQueue& q : plan.queues) {
    nlohmann::ordered_json tasks = nlohmann::ordered_json::array();
    for (const PlanItem& it : q.items) tasks.push_back(item_name(it, g, topo));
    queues.push_back({{"name", q.name}, {"tasks", tasks}});
  }
  j["queues"] = queues;
  return j.dump(2) + "\n";
}

Plan parse_plan(const Yaml& doc, const models::Graph& g, const hw::Topology& topo) {
  doc.allow_keys({"placer", "devices", "queues"});
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
  for (const Yaml& q : doc.at("queues").items()) {
    q.allow_keys({"name", "tasks"});
    PlanQueue pq{q.at("name").str(), {}};
    for (const Yaml& t : q.at("tasks").items()) {
      const std::string s = t.str();
      const size_t at = s.rfind('@');
      PlanItem it;
      const std::string node = at == std::string::npos ? s : s.substr(0, at);
      it.node = g.find(node);
      if (it.node < 0) t.fail(fmt::format("no node '{}' in graph '{}'", node, g.name));
      if (at != std::string::npos) {
        it.kind = PlanItem::Kind::Deliver;
        it.device = topo.find(s.substr(at + 1));
        if (it.device < 0) t.fail(fmt::format("no device '{}' in '{}'", s.substr(at + 1), topo.name));
      } else if (g.nodes[it.node].kind != models::NodeKind::Op) {
        t.fail(fmt::format("'{}' is a parameter: name its delivery as '{}@DEVICE'", s, s));
      }
      pq.items.push_back(it);
    }
    plan.queues.push_back(std::move(pq));
  }
  return plan;
}

Plan load_plan_json(const std::string& path, const models::Graph& g, const hw::Topology& topo) {
  return parse_plan(Yaml::load_file(path), g, topo);
}

}  // namespace placesim::scheduler
