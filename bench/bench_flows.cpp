// Flow-heavy simulation: N transfers between random hosts of a two-level tree, the flow set of
// the speed issue's SimGrid comparison: 512 hosts under 32 leaf switches (16 hosts each), host
// links 25 GB/s, leaf uplinks 100 GB/s, per direction, 1 us per link; flows of 1-100 MB start
// staggered over 10 ms (a latency before each). Many flows couple through the uplinks, so every
// start and end re-solves thousands of rates: the case where superseded completion events
// used to pile up (executor.cpp, drop_stale_events). Reports tasks, and the process's peak
// resident memory after the run (a high-water mark: run one size per process to compare).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <random>

#include "sim/engine/executor.hpp"
#include "sim/engine/task_graph.hpp"

namespace {

using namespace placesim;
using namespace placesim::engine;

TaskGraph random_flows(int flows, std::uint64_t seed) {
  constexpr int kHosts = 512, kPerLeaf = 16, kLeaves = kHosts / kPerLeaf;
  TaskGraph g;
  std::vector<ResourceId> host_up(kHosts), host_down(kHosts), leaf_up(kLeaves), leaf_down(kLeaves);
  for (int h = 0; h < kHosts; ++h) {
    host_up[h] = g.add_resource("h" + std::to_string(h) + ".up", 25e9);
    host_down[h] = g.add_resource("h" + std::to_string(h) + ".down", 25e9);
  }
  for (int l = 0; l < kLeaves; ++l) {
    leaf_up[l] = g.add_resource("leaf" + std::to_string(l) + ".up", 100e9);
    leaf_down[l] = g.add_resource("leaf" + std::to_string(l) + ".down", 100e9);
  }
  std::mt19937_64 rng(seed);
  for (int f = 0; f < flows; ++f) {
    const int src = static_cast<int>(rng() % kHosts);
    int dst = static_cast<int>(rng() % (kHosts - 1));
    dst += dst >= src;
    const double bytes = 1e6 + static_cast<double>(rng() % 99'000'000);
    const int hops = src / kPerLeaf == dst / kPerLeaf ? 2 : 4;
    Task t;
    t.name = "f" + std::to_string(f);
    t.kind = TaskKind::Transfer;
    t.queue = g.add_queue(t.name);
    t.bytes = bytes;
    t.latency = static_cast<TimePs>(rng() % 10'000'000'000ULL) + hops * 1'000'000;  // stagger + link latencies
    t.uses = {{host_up[src], bytes}, {host_down[dst], bytes}};
    if (hops == 4) {
      t.uses.push_back({leaf_up[src / kPerLeaf], bytes});
      t.uses.push_back({leaf_down[dst / kPerLeaf], bytes});
    }
    g.add_task(std::move(t));
  }
  return g;
}

void simulate_flows(benchmark::State& state) {
  const TaskGraph g = random_flows(static_cast<int>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(simulate(g).makespan);
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  state.counters["tasks"] = static_cast<double>(g.tasks.size());
  state.counters["peak_rss_MiB"] = static_cast<double>(u.ru_maxrss) / 1024;
}

BENCHMARK(simulate_flows)->Arg(1000)->Arg(10000)->Arg(30000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
