// Collectives in flow fidelity at scale: ring all-reduce on 64 and 512 ranks over a ring of
// links, direct all-to-all on 64 ranks through one switch (each rank: 64 flows per 2 links,
// 4032 flows sharing at once). The graph is built once; the loop times simulate() alone and
// reports tasks/s (lowering is timed separately).
//
// ring_all_reduce_at_scale builds and simulates once per rank count, up to 4096 ranks (33.5
// million tasks), and reports the build and simulate seconds, the graph's bytes per task (the
// resident memory it added) and the process's peak RSS. Run it alone so the peak is its own:
//   build/bench/bench_collectives --benchmark_filter=at_scale
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;
using namespace placesim::engine;

struct Built {
  TaskGraph graph;
  CollectiveSpec spec;
};

// 25 GB/s, 2 us links; 256 MiB all-reduce buffer or all-to-all send buffer per rank.
void build(Built& b, CollectiveOp op, const char* algorithm, int n) {
  b.spec.op = op;
  b.spec.algorithm = algorithm;
  for (int i = 0; i < n; ++i) b.spec.group.push_back(i);
  b.spec.bytes = 256.0 * (1 << 20);
  const LinkNetwork net = op == CollectiveOp::AllToAll ? switch_network(b.graph, n, 25e9, 2'000'000)
                                                       : ring_network(b.graph, n, 25e9, 2'000'000);
  lower_collective(b.graph, b.spec, net);
}

void simulate_collective(benchmark::State& state, CollectiveOp op, const char* algorithm) {
  Built b;
  build(b, op, algorithm, static_cast<int>(state.range(0)));
  double makespan = 0;
  for (auto _ : state) {
    makespan = to_seconds(simulate(b.graph).makespan);
    benchmark::DoNotOptimize(makespan);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * b.graph.tasks.size()));
  state.counters["tasks"] = static_cast<double>(b.graph.tasks.size());
  state.counters["sim_ms"] = makespan * 1e3;
}

void lower_collective_bench(benchmark::State& state, CollectiveOp op, const char* algorithm) {
  for (auto _ : state) {
    Built b;
    build(b, op, algorithm, static_cast<int>(state.range(0)));
    benchmark::DoNotOptimize(b.graph.tasks.size());
  }
}

// Resident memory of this process now, in bytes (/proc/self/statm's second field, in pages).
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  double size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<double>(sysconf(_SC_PAGESIZE));
}

void ring_all_reduce_at_scale(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  for (auto _ : state) {
    const double before = resident_bytes();
    const auto t0 = Clock::now();
    Built b;
    build(b, CollectiveOp::AllReduce, "ring", static_cast<int>(state.range(0)));
    const auto t1 = Clock::now();
    const double graph_bytes = resident_bytes() - before;
    const double makespan = to_seconds(simulate(b.graph).makespan);
    const auto t2 = Clock::now();
    benchmark::DoNotOptimize(makespan);
    const double tasks = static_cast<double>(b.graph.tasks.size());
    state.counters["tasks"] = tasks;
    state.counters["build_s"] = std::chrono::duration<double>(t1 - t0).count();
    state.counters["simulate_s"] = std::chrono::duration<double>(t2 - t1).count();
    state.counters["graph_B_per_task"] = graph_bytes / tasks;
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    state.counters["peak_rss_MiB"] = static_cast<double>(u.ru_maxrss) / 1024;
    state.counters["sim_ms"] = makespan * 1e3;
  }
}

BENCHMARK_CAPTURE(simulate_collective, ring_all_reduce, CollectiveOp::AllReduce, "ring")->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(simulate_collective, direct_all_to_all, CollectiveOp::AllToAll, "direct")->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(lower_collective_bench, ring_all_reduce, CollectiveOp::AllReduce, "ring")->Arg(512)->Unit(benchmark::kMillisecond);
BENCHMARK(ring_all_reduce_at_scale)->Arg(1024)->Arg(4096)->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(lower_collective_bench, direct_all_to_all, CollectiveOp::AllToAll, "direct")->Arg(64)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
