// The CPU backend's own overhead per task: chains of empty tasks (no kernel), on one queue
// (the worker walks its queue: two clock reads and a completion store per task) and alternating
// between two queues on two cores (each task waits for the other queue's: a futex wake-up per
// task). Reported as time per task; it must stay far below the tasks it measures.
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include "backend/cpu/cpu_backend.hpp"

namespace {

using namespace placesim;

void empty_chain(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), queues = static_cast<int>(state.range(1));
  const backend::EmptyChain chain = backend::empty_chain(n, queues);
  const engine::TaskGraph& g = chain.graph;
  const backend::Workload& w = chain.workload;
  backend::BackendOptions o;
  o.warmup = 0;
  o.repeats = 1;
  double per_task = 0;
  for (auto _ : state) {
    const engine::Trace t = backend::run_cpu(g, w, o).trace;
    per_task = to_seconds(t.makespan) / n;
    state.SetIterationTime(to_seconds(t.makespan));
  }
  state.counters["ns_per_task"] = per_task * 1e9;
  state.SetItemsProcessed(state.iterations() * n);
}

}  // namespace

BENCHMARK(empty_chain)->ArgNames({"tasks", "queues"})->Args({10000, 1})->Args({10000, 2})->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
