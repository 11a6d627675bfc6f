// Shared by the placer tests: problems on topologies written inline, and a plan's simulation.
#pragma once

#include <memory>
#include <string>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/placers/milp_support.hpp"
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

}  // namespace placers_test
