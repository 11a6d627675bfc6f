#include "scheduler/placers/tensor_parallel/tp_plan.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "scheduler/lower/collectives.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/slices.hpp"

namespace placesim::scheduler::tp {

TpPlan build_tp_plan(const Problem& p, std::string placer, const TpDesign& d) {
  const models::Graph& g = *p.graph;
  Plan plan;
  plan.splits = d.splits;
  const std::map<int, std::vector<int>> ids = slice_ids(g, plan.splits);
  auto slices = [&](const std::vector<int>& ops, const std::vector<int>& group) {
    std::vector<bool> member(p.topo->devices.size(), !d.group_joins);
    for (int dev : group) member[dev] = true;
    std::vector<int> out;
    for (int op : ops) {
      auto it = ids.find(op);
      if (it == ids.end()) {
        out.push_back(op);
        continue;
      }
      const std::vector<PlanSlice>& s = plan.splits.at(op).slices;
      for (size_t i = 0; i < s.size(); ++i)
        if (member[s[i].device]) out.push_back(it->second[i]);
    }
    return out;
  };
  for (PlanCollective c : d.collectives) {
    c.after = slices(c.after, c.group);
    c.before = slices(c.before, c.group);
    plan.collectives.push_back(std::move(c));
  }
  size_t nodes = g.nodes.size();
  for (auto& [_, v] : ids) nodes += v.size() - 1;
  plan.device_of.assign(nodes, -1);
  for (int n : g.ops())
    if (!plan.splits.count(n)) plan.device_of[n] = d.device_of.at(n);
  for (auto& [op, split] : plan.splits)
    for (size_t i = 0; i < split.slices.size(); ++i) plan.device_of[ids.at(op)[i]] = split.slices[i].device;
  // Sliced from what the built plan keeps: its splits, collectives and ops' devices (slice_graph
  // reads no more; build_plan changes only its parameters' devices, which no edge consumes).
  Problem sliced = sliced_problem(p, plan);
  BuildOptions opts;
  opts.params = d.params;
  Plan built = build_plan(sliced, std::move(placer), plan.device_of, plan_order(*sliced.graph, plan.collectives, ids), opts);
  built.splits = std::move(plan.splits);
  built.collectives = std::move(plan.collectives);
  return {std::move(built), std::move(sliced)};
}

double bsp_seconds(const Problem& p, const TpPlan& tp) {
  const models::Graph& g = *p.graph;
  const Plan& plan = tp.plan;
  const Problem& sliced = tp.sliced;
  const std::map<int, std::vector<int>> ids = slice_ids(g, plan.splits);
  const std::vector<int> original = original_nodes(g, plan.splits);  // sliced node -> the problem's node
  // Per op, the collectives it waits for; per collective, when its last `after` op ends.
  std::map<int, std::vector<size_t>> waits;
  std::vector<double> ready(plan.collectives.size(), 0.0);
  std::map<int, std::vector<size_t>> starts;  // op -> collectives that wait for it
  for (size_t c = 0; c < plan.collectives.size(); ++c) {
    for (int n : plan.collectives[c].before) waits[original[n]].push_back(c);
    for (int n : plan.collectives[c].after) starts[original[n]].push_back(c);
  }
  const RouteNetwork net(*p.topo, {});
  std::vector<double> seconds;
  for (const PlanCollective& c : plan.collectives)
    seconds.push_back(engine::analytic_seconds(collective_spec(c, *p.topo, engine::Fidelity::Analytic), net));
  const models::Graph& sg = *sliced.graph;
  std::vector<double> carried(2 * p.topo->links.size(), 0.0);  // per link direction, bytes so far
  std::set<std::pair<int, int>> copied;                           // (parameter, device)
  double now = 0;
  for (int op : g.ops()) {
    for (size_t c : waits[op]) now = std::max(now, ready[c] + seconds[c]);
    auto it = ids.find(op);
    const std::vector<int> slices = it == ids.end() ? std::vector<int>{op} : it->second;
    double arrived = 0, slowest = 0;
    for (int s : slices) {
      const int dev = plan.device_of[s];
      if (p.weights == WeightsMode::Host && !p.topo->network_ideal)
        for (int e : sg.in_edges(s)) {
          const int w = sg.edges[e].src;
          const ParamDelivery how = plan.delivery(w, dev);
          if (sg.nodes[w].kind != models::NodeKind::Param || how.via == ParamDelivery::Via::Resident ||
              how.via == ParamDelivery::Via::Dha || !copied.emplace(w, dev).second)
            continue;
          const int host = how.source >= 0 ? how.source : p.topo->host_memory_for(dev);
          if (host < 0) continue;
          for (const engine::Use& u : net.uses(host, dev, sg.edges[e].bytes)) {
            carried[u.resource] += u.amount;
            arrived = std::max(arrived, carried[u.resource] / net.capacity(u.resource) + p.topo->route(host, dev)->latency_s);
          }
        }
      slowest = std::max(slowest, sliced.duration(s, dev, plan.cores(dev)));
    }
    now = std::max(now, arrived) + slowest;
    for (size_t c : starts[op]) ready[c] = std::max(ready[c], now);
  }
  for (size_t c = 0; c < plan.collectives.size(); ++c) now = std::max(now, ready[c] + seconds[c]);
  return now;
}

std::string ring_algorithm(const hw::Topology& topo, const std::vector<int>& group) {
  std::map<std::string, int> per_node;
  for (int d : group) ++per_node[topo.devices[d].node];
  if (per_node.size() < 2) return "ring";
  const int first = per_node.begin()->second;
  const bool even = std::all_of(per_node.begin(), per_node.end(), [&](const auto& e) { return e.second == first; });
  return even && first >= 2 ? "hierarchical" : "ring";
}

int count_option(const Yaml& v, const std::string& name, const std::string& word) {
  if (v.is_scalar() && v.str() == word) return 0;
  const std::int64_t n = v.integer();
  if (n < 1 || n > 1 << 20) v.fail(fmt::format("{} must be a whole number >= 1 or {}, got '{}'", name, word, v.str()));
  return static_cast<int>(n);
}

}  // namespace placesim::scheduler::tp
