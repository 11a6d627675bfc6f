// Shared by the placer tests: problems on topologies written inline, and a plan's simulation.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/placers/milp_support.hpp"
#include "scheduler/plan/slices.hpp"
#include "sim/engine/executor.hpp"

namespace placers_test {

using namespace placesim;

inline scheduler::Problem problem(models::Graph g, hw::Topology topo,
                                  scheduler::WeightsMode w = scheduler::WeightsMode::Resident) {
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(std::move(topo));
  p.graph = std::make_shared<const models::Graph>(std::move(g));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = w;
  return p;
}

inline scheduler::PlacerResult run_placer(const std::string& spec, const scheduler::Problem& p) {
  return scheduler::make_placer(Yaml::load_string(spec, "test.yaml")).placer->place(p);
}

// A seeded random layered DAG (work mode: flops and bytes) on a built-in preset.
inline scheduler::Problem random_dag_on(const std::string& preset, std::uint64_t seed, int depth, int width, double ccr = 1) {
  models::RandomDagSpec spec;
  spec.seed = seed;
  spec.depth = depth;
  spec.width = width;
  spec.ccr = ccr;
  return problem(models::generate_random_dag(spec), hw::load_topology(Yaml(YAML::Node(preset), "test")));
}

// A MILP placer run by a suite over every placer: a quarter second each, so the suite stays
// fast; the status is then "ok" or "limit", and the plan the better of the MILP's and the
// warm start's (whichever it is, it must pass the suite).
inline bool is_milp(const std::string& name) { return scheduler::placers().get(name).kind == scheduler::PlacerKind::Milp; }
inline std::string suite_spec(const std::string& name) {
  return is_milp(name) ? "{name: " + name + ", time_limit: 0.25}" : name;
}
inline bool solved(const scheduler::PlacerResult& r, const std::string& name) {
  return r.status == scheduler::RunStatus::Ok || (is_milp(name) && r.status == scheduler::RunStatus::Limit);
}

// The tensor-parallel tests' model: gpt2-large cut to 2 layers, fp16, batch 8 over 128 positions.
inline models::Graph gpt2_large_2_layers(models::Phase phase) {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 2;
  spec.batch = 8;
  spec.seq = 128;
  spec.phase = phase;
  spec.dtype = models::DType::FP16;
  return models::generate_transformer(spec);
}

struct Simulated {
  scheduler::Lowered lowered;
  engine::Trace trace;
  double makespan = 0;
};

inline Simulated simulate(const scheduler::Problem& p, const scheduler::Plan& plan) {
  Simulated s{scheduler::lower(p, plan), {}, 0};
  s.trace = engine::simulate(s.lowered.graph);
  s.makespan = to_seconds(s.trace.makespan);
  return s;
}

// Each op computed exactly once, on its plan device; producers end before consumers start;
// memory within capacity.
// A plan that splits ops is checked on its sliced graph, where each slice is an op.
inline void expect_valid(const scheduler::Problem& problem, const scheduler::Plan& plan, const Simulated& s,
                         const std::string& what) {
  const scheduler::Problem p = scheduler::sliced_problem(problem, plan);
  const auto& g = *p.graph;
  std::map<int, int> computed;
  for (const auto& q : plan.queues)
    for (const auto& it : q.items)
      if (it.kind == scheduler::PlanItem::Kind::Compute) ++computed[it.node];
  std::vector<int> task_of(g.nodes.size(), -1);
  for (size_t t = 0; t < s.lowered.graph.tasks.size(); ++t) {
    const auto& task = s.lowered.graph.tasks[t];
    const int op = s.lowered.graph.op(static_cast<engine::TaskId>(t));
    if (op >= 0 && (task.kind == engine::TaskKind::Compute || task.kind == engine::TaskKind::Dha)) task_of[op] = static_cast<int>(t);
  }
  for (int op : g.ops()) {
    EXPECT_EQ(computed[op], 1) << what << ": " << g.nodes[op].name;
    ASSERT_GE(plan.device_of[op], 0) << what;
    EXPECT_NE(p.duration(op, plan.device_of[op]), models::kCannotRun) << what;
    ASSERT_GE(task_of[op], 0) << what;
    for (int e : g.in_edges(op)) {
      const int u = g.edges[e].src;
      if (g.nodes[u].kind != models::NodeKind::Op || task_of[u] < 0) continue;
      EXPECT_LE(s.trace.tasks[task_of[u]].end, s.trace.tasks[task_of[op]].start)
          << what << ": " << g.nodes[u].name << " -> " << g.nodes[op].name;
    }
  }
  const auto mem = scheduler::check_memory(problem, s.lowered, s.trace);
  EXPECT_EQ(mem.over_device, "") << what;
}

}  // namespace placers_test
