// Helpers for the scheduler's hardware-fidelity tests: a problem on a topology the test may
// modify first, route figures read from that topology (so expectations follow the preset), and
// a run that reports each task's end by name.
#pragma once

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hw/route_cost.hpp"
#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/graph_json.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/json.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/names.hpp"
#include "sim/engine/executor.hpp"

namespace fidelity {

using namespace placesim;
using scheduler::Plan;
using scheduler::PlanItem;
using scheduler::Problem;

inline hw::Topology preset(const std::string& name) { return hw::load_topology(Yaml(YAML::Node(name), "test")); }

inline hw::Device& device(hw::Topology& t, const std::string& id) { return t.devices[t.index(id)]; }

inline Problem problem(const std::string& graph_json, hw::Topology topo,
                       scheduler::WeightsMode w = scheduler::WeightsMode::Host) {
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(std::move(topo));
  p.graph = std::make_shared<const models::Graph>(models::parse_graph(Json::load_string(graph_json, "g.json")));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = w;
  return p;
}

// The route from a to b: its slowest hop's bandwidth in that direction, and its total latency.
struct Path {
  double bw = 1e300, latency = 0;
};
inline Path path(const hw::Topology& t, const std::string& a, const std::string& b) {
  const hw::RouteCost r = hw::route_cost(t, t.index(a), t.index(b));
  return {r.bandwidth, r.latency_s};
}

// Ops placed by name; the rest of the plan from build_plan.
inline Plan plan_for(const Problem& p, const std::vector<std::pair<std::string, std::string>>& where,
                     const scheduler::BuildOptions& opts = {}) {
  std::vector<int> device_of(p.graph->nodes.size(), -1);
  for (auto& [op, dev] : where) device_of[p.graph->find(op)] = p.topo->index(dev);
  return scheduler::build_plan(p, "test", device_of, p.graph->ops(), opts);
}

// Moves task `task` (by name) to the end of queue `to`, creating the queue if needed.
inline void move_task(Plan& plan, const Problem& p, const std::string& task, const std::string& to) {
  PlanItem found;
  bool ok = false;
  for (auto& q : plan.queues)
    for (auto it = q.items.begin(); it != q.items.end(); ++it)
      if (scheduler::item_name(*it, *p.graph, *p.topo) == task) {
        found = *it;
        q.items.erase(it);
        ok = true;
        break;
      }
  ASSERT_TRUE(ok) << task;
  for (auto& q : plan.queues)
    if (q.name == to) return q.items.push_back(found);
  plan.queues.push_back({to, {found}});
}

struct Outcome {
  scheduler::Lowered low;
  engine::Trace trace;
  double makespan() const { return to_seconds(trace.makespan); }
  const engine::Task& task(const std::string& name) const {
    if (const engine::TaskId t = low.graph.find_task(name); t >= 0) return low.graph.tasks[t];
    ADD_FAILURE() << "no task " << name;
    return low.graph.tasks.front();
  }
  double end(const std::string& name) const {
    return to_seconds(trace.tasks[&task(name) - low.graph.tasks.data()].end);
  }
};

inline Outcome run(const Problem& p, const Plan& plan) {
  Outcome r{scheduler::lower(p, plan), {}};
  r.trace = engine::simulate(r.low.graph);
  return r;
}

// A plan given as JSON text ("plan.json"), run with its collectives at fidelity f.
inline Outcome run_text(Problem p, const std::string& text, engine::Fidelity f) {
  p.collectives = f;
  return run(p, scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo));
}

// The 1-based line of the first `marker` in `text` (-1 if none): where a located error should point.
inline int line_of(const std::string& text, const std::string& marker) {
  const size_t at = text.find(marker);
  return at == std::string::npos ? -1 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

// Times are whole picoseconds, each completion rounded up: allow a few per task.
inline double tol(double t) { return 1e-9 * t + 1e-11; }

}  // namespace fidelity
