#include "scheduler/placers/tensor_parallel/tp_plan.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "scheduler/lower_collectives.hpp"
#include "scheduler/plan_builder.hpp"
#include "scheduler/plan_slices.hpp"

namespace placesim::scheduler::tp {

Plan build_tp_plan(const Problem& p, std::string placer, const TpDesign& d) {
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
  const Problem sliced = sliced_problem(p, plan);
  BuildOptions opts;
  opts.params = d.params;
  Plan built = build_plan(sliced, std::move(placer), plan.device_of, plan_order(*sliced.graph, plan.collectives, ids), opts);
  built.splits = std::move(plan.splits);
  built.collectives = std::move(plan.collectives);
  return built;
}

double bsp_seconds(const Problem& p, const Plan& plan) {
  const models::Graph& g = *p.graph;
  const Problem sliced = sliced_problem(p, plan);
  const std::map<int, std::vector<int>> ids = slice_ids(g, plan.splits);
  std::map<int, int> op_of;  // sliced node -> the problem's op
  for (auto& [op, v] : ids)
    for (int s : v) op_of[s] = op;
  auto original = [&](int n) {
    auto it = op_of.find(n);
    return it == op_of.end() ? n : it->second;
  };
  // Per op, the collectives it waits for; per collective, when its last `after` op ends.
  std::map<int, std::vector<size_t>> waits;
  std::vector<double> ready(plan.collectives.size(), 0.0);
  std::map<int, std::vector<size_t>> starts;  // op -> collectives that wait for it
  for (size_t c = 0; c < plan.collectives.size(); ++c) {
    for (int n : plan.collectives[c].before) waits[original(n)].push_back(c);
    for (int n : plan.collectives[c].after) starts[original(n)].push_back(c);
  }
  const RouteNetwork net(*p.topo, {});
  std::vector<double> seconds;
  for (const PlanCollective& c : plan.collectives)
    seconds.push_back(engine::analytic_seconds(collective_spec(c, *p.topo, engine::Fidelity::Analytic), net));
  double now = 0;
  for (int op : g.ops()) {
    for (size_t c : waits[op]) now = std::max(now, ready[c] + seconds[c]);
    double slowest = 0;
    auto it = ids.find(op);
    for (int s : it == ids.end() ? std::vector<int>{op} : it->second)
      slowest = std::max(slowest, sliced.duration(s, plan.device_of[s], plan.cores(plan.device_of[s])));
    now += slowest;
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
