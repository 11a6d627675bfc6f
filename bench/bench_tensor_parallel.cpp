// A decode step of GPT-3 175B (batch 200 over 128 cached positions, FP16) under megatron-tp on N
// one-A100 nodes (the asymgroup generator's cluster), per collective fidelity: placing (the plan
// and its estimate), lowering, and simulating, timed apart. The goal the tensor-parallelism
// issue sets is a flow-fidelity step on 1024 GPUs in under 10 s; the sizes here show how far.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower.hpp"
#include "scheduler/placer.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;

scheduler::Problem problem(int nodes, engine::Fidelity fidelity) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.batch = 200;
  spec.seq = 128;
  spec.phase = models::Phase::Decode;
  scheduler::Problem p;
  const Yaml hw = Yaml::load_string(fmt::format("{{generator: asymgroup, nodes: {{count: {}, gpus: 1}}}}", nodes), "bench");
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(hw));
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Resident;
  p.collectives = fidelity;
  return p;
}

const scheduler::PlacerSpec& megatron() {
  static const scheduler::PlacerSpec spec = scheduler::make_placer(Yaml(YAML::Node("megatron-tp"), "bench"));
  return spec;
}

void place(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)), engine::Fidelity::Analytic);
  for (auto _ : state) benchmark::DoNotOptimize(megatron().placer->place(p).predicted_s);
}

void simulate_step(benchmark::State& state, engine::Fidelity fidelity) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)), fidelity);
  const scheduler::Plan plan = *megatron().placer->place(p).plan;
  const scheduler::Lowered low = scheduler::lower(p, plan);
  for (auto _ : state) benchmark::DoNotOptimize(engine::simulate(low.graph).makespan);
  state.counters["tasks"] = static_cast<double>(low.graph.tasks.size());
}

BENCHMARK(place)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_step, analytic, engine::Fidelity::Analytic)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_step, flow, engine::Fidelity::Flow)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
