// Simulating a whole model: OpenLLaMA-7B at op level on the SortingHat V100 preset, prefill
// (batch 1, seq 1024) and one decode step, with the two plan shapes that stress the engine
// differently: single-device (one long queue, parameter copies overlapping compute) and
// round-robin (activations crossing NVLink, four compute queues in flight).
// Reports tasks/s; lowering is timed separately from simulation, and so is writing the run's
// Chrome trace (--trace), beside the simulation it records.
#include <benchmark/benchmark.h>

#include <fstream>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/placer.hpp"
#include "sim/engine/executor.hpp"
#include "sim/trace/chrome_trace.hpp"

namespace {

using namespace placesim;

scheduler::Problem problem(models::Phase phase) {
  models::TransformerSpec spec;
  spec.arch = "openllama-7b";
  spec.batch = 1;
  spec.seq = 1024;
  spec.phase = phase;
  spec.granularity = models::Granularity::Op;
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "bench")));
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Host;
  return p;
}

void simulate_model(benchmark::State& state, models::Phase phase, const char* placer) {
  const scheduler::Problem p = problem(phase);
  const auto plan = *scheduler::make_placer(Yaml(YAML::Node(placer), "bench")).placer->place(p).plan;
  const scheduler::Lowered low = scheduler::lower(p, plan);
  for (auto _ : state) benchmark::DoNotOptimize(engine::simulate(low.graph).makespan);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * low.graph.tasks.size()));
  state.counters["tasks"] = static_cast<double>(low.graph.tasks.size());
}

// The trace of one simulated run, written where --trace writes it (a file; here /dev/null, so
// that the disk is not what is timed): its events per second.
void trace_model(benchmark::State& state, models::Phase phase, const char* placer) {
  const scheduler::Problem p = problem(phase);
  const auto plan = *scheduler::make_placer(Yaml(YAML::Node(placer), "bench")).placer->place(p).plan;
  const scheduler::Lowered low = scheduler::lower(p, plan);
  const engine::Trace t = engine::simulate(low.graph);
  std::size_t events = low.graph.tasks.size();
  for (const auto& series : t.usage) events += series.size();
  for (const auto& series : t.memory) events += series.size();
  std::ofstream null("/dev/null");
  for (auto _ : state) trace::write_chrome_trace(null, low.graph, t);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events));
  state.counters["events"] = static_cast<double>(events);
}

void lower_model(benchmark::State& state, models::Phase phase) {
  const scheduler::Problem p = problem(phase);
  const auto plan = *scheduler::make_placer(Yaml(YAML::Node("round-robin"), "bench")).placer->place(p).plan;
  for (auto _ : state) benchmark::DoNotOptimize(scheduler::lower(p, plan).graph.tasks.size());
}

BENCHMARK_CAPTURE(simulate_model, prefill_single_device, models::Phase::Prefill, "single-device")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_model, prefill_round_robin, models::Phase::Prefill, "round-robin")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_model, decode_single_device, models::Phase::Decode, "single-device")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_model, decode_round_robin, models::Phase::Decode, "round-robin")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(trace_model, prefill_round_robin, models::Phase::Prefill, "round-robin")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lower_model, prefill, models::Phase::Prefill)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
