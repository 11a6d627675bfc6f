// A decode step of GPT-3 175B (128 cached positions, FP16) under megatron-tp, per collective
// fidelity (flow, link, analytic): placing (the plan and its estimate), lowering, and
// simulating, timed apart; step_ms is the simulated step, link's beside flow's is its error.
// Arguments: nodes, GPUs per node, tp (GPUs per tensor-parallel group), batch:
//   * 16 and 64 one-A100 nodes (the asymgroup generator's cluster), one group of every GPU,
//     batch 200: how the cost grows with one group (tasks grow as ranks x ring steps: one group
//     of 256 GPUs is 25 M tasks at flow fidelity, one of 1024 out of reach but at link fidelity);
//   * 128 DGX A100 nodes (1024 GPUs; the dgx-a100 preset as a node template, its NICs joined by
//     one switch at InfiniBand HDR's achieved 22.5 GB/s per direction and 1 us NIC to NIC,
//     hw/presets/FIGURES.md; no placer's traffic crosses it here, each group being one node),
//     tp = 8 (a group per node, all-reduces over its NVSwitch) x 128 data-parallel replicas,
//     batch 1024 (8 sequences per replica): a realistic deployment of that size.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/placer.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;

std::string hardware(int nodes, int gpus) {
  if (gpus == 1) return fmt::format("{{generator: asymgroup, nodes: {{count: {}, gpus: 1}}}}", nodes);
  if (gpus != 8) throw std::invalid_argument("bench_tensor_parallel: nodes of 1 (asymgroup) or 8 (DGX A100) GPUs");
  return fmt::format(
      "{{node_templates: {{dgx: {{include: dgx-a100}}}}, nodes: [{{template: dgx, count: {}}}], "
      "fabric: {{type: switch, link: {{bw: 22.5GB/s, latency: 0.5us, kind: ib}}}}}}",
      nodes);
}

struct Step {
  scheduler::Problem problem;
  scheduler::PlacerSpec placer;
};

// state: nodes, GPUs per node, tp, batch.
Step step(const benchmark::State& state, engine::Fidelity fidelity) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.batch = static_cast<int>(state.range(3));
  spec.seq = 128;
  spec.phase = models::Phase::Decode;
  Step s;
  const Yaml hw = Yaml::load_string(hardware(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))), "bench");
  s.problem.topo = std::make_shared<const hw::Topology>(hw::load_topology(hw));
  s.problem.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  s.problem.cost = std::make_shared<const models::RooflineCost>();
  s.problem.weights = scheduler::WeightsMode::Resident;
  s.problem.collectives = fidelity;
  s.placer = scheduler::make_placer(
      Yaml::load_string(fmt::format("{{name: megatron-tp, tp: {}}}", state.range(2)), "bench"));
  return s;
}

void place(benchmark::State& state) {
  const Step s = step(state, engine::Fidelity::Analytic);
  for (auto _ : state) benchmark::DoNotOptimize(s.placer.placer->place(s.problem).predicted_s);
}

void lower_step(benchmark::State& state, engine::Fidelity fidelity) {
  const Step s = step(state, fidelity);
  const scheduler::Plan plan = *s.placer.placer->place(s.problem).plan;
  size_t tasks = 0;
  for (auto _ : state) tasks = scheduler::lower(s.problem, plan).graph.tasks.size();
  state.counters["tasks"] = static_cast<double>(tasks);
}

void simulate_step(benchmark::State& state, engine::Fidelity fidelity) {
  const Step s = step(state, fidelity);
  const scheduler::Plan plan = *s.placer.placer->place(s.problem).plan;
  const scheduler::Lowered low = scheduler::lower(s.problem, plan);
  double makespan = 0;
  for (auto _ : state) makespan = to_seconds(engine::simulate(low.graph).makespan);
  state.counters["tasks"] = static_cast<double>(low.graph.tasks.size());
  state.counters["step_ms"] = makespan * 1e3;  // the simulated decode step, the same at both fidelities
}

void deployments(benchmark::internal::Benchmark* b) {
  b->ArgNames({"nodes", "gpus", "tp", "batch"})
      ->Args({16, 1, 16, 200})
      ->Args({64, 1, 64, 200})
      ->Args({128, 8, 8, 1024})
      ->Unit(benchmark::kMillisecond);
}

// Flows also on one group of 256 GPUs (25 M tasks, about 3.5 GB).
void flow_deployments(benchmark::internal::Benchmark* b) {
  deployments(b);
  b->Args({256, 1, 256, 200});
}

// Link fidelity also on one group of 1024 GPUs, where flows are out of reach.
void link_deployments(benchmark::internal::Benchmark* b) {
  flow_deployments(b);
  b->Args({1024, 1, 1024, 200});
}

BENCHMARK(place)->Apply(deployments);
BENCHMARK_CAPTURE(lower_step, analytic, engine::Fidelity::Analytic)->Apply(deployments);
BENCHMARK_CAPTURE(lower_step, flow, engine::Fidelity::Flow)->Apply(deployments);
BENCHMARK_CAPTURE(lower_step, link, engine::Fidelity::Link)->Apply(link_deployments)->Iterations(1);
BENCHMARK_CAPTURE(simulate_step, analytic, engine::Fidelity::Analytic)->Apply(deployments);
BENCHMARK_CAPTURE(simulate_step, flow, engine::Fidelity::Flow)->Apply(flow_deployments)->Iterations(1);
BENCHMARK_CAPTURE(simulate_step, link, engine::Fidelity::Link)->Apply(link_deployments)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
