// Large inputs and start-up. A seeded random layered DAG (width 100, mean out-degree about 4, as
// bench_placers) of 10k and 100k ops and its round-robin plan on the SortingHat V100 preset:
// the graph and the plan written to JSON and read back (parse_graph, parse_plan), each of which
// should take time linear in the ops (the 100k rows about ten times the 10k ones); and
// `placesim simulate` re-simulating the saved 100k-op plan from its files, end to end.
// Start-up: the placesim binary spawned for `--help` and `list placers`, the child's wall time.
// (Its peak RSS is measured with /usr/bin/time -v: a spawned child's ru_maxrss counts this
// process's memory, which it shares until exec.)
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"
#include "models/graph_json.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/plan_json.hpp"
#include "sim/core/file_io.hpp"

extern char** environ;

namespace {

using namespace placesim;

scheduler::Problem problem(int ops) {
  models::RandomDagSpec spec;
  spec.seed = 1;
  spec.width = 100;
  spec.depth = ops / spec.width;
  spec.density = 4.0 / spec.width;
  spec.ccr = 1;
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "bench")));
  p.graph = std::make_shared<const models::Graph>(models::generate_random_dag(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Resident;
  return p;
}

scheduler::Plan round_robin(const scheduler::Problem& p) {
  return *scheduler::make_placer(Yaml(YAML::Node("round-robin"), "bench")).placer->place(p).plan;
}

void BM_WriteGraph(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(models::graph_to_json(*p.graph).size());
  state.counters["ops"] = static_cast<double>(p.graph->ops().size());
}

void BM_LoadGraph(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  const std::string text = models::graph_to_json(*p.graph);
  for (auto _ : state) benchmark::DoNotOptimize(models::parse_graph(Json::load_string(text, "g.json")).nodes.size());
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

void BM_WritePlan(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  const scheduler::Plan plan = round_robin(p);
  for (auto _ : state) benchmark::DoNotOptimize(scheduler::plan_to_json(plan, *p.graph, *p.topo).size());
}

void BM_LoadPlan(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  const std::string text = scheduler::plan_to_json(round_robin(p), *p.graph, *p.topo);
  for (auto _ : state)
    benchmark::DoNotOptimize(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo).queues.size());
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

BENCHMARK(BM_WriteGraph)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadGraph)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WritePlan)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadPlan)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Runs placesim with `args`, its output discarded; the child's wall time goes to the state.
void spawn_placesim(benchmark::State& state, const std::vector<std::string>& args) {
  std::vector<std::string> argv_s{PLACESIM_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto _ : state) {
    posix_spawn_file_actions_t io;
    posix_spawn_file_actions_init(&io);
    posix_spawn_file_actions_addopen(&io, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&io, 2, "/dev/null", O_WRONLY, 0);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &io, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot spawn placesim");
      break;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    posix_spawn_file_actions_destroy(&io);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("placesim failed");
      break;
    }
  }
}

void BM_StartHelp(benchmark::State& state) { spawn_placesim(state, {"--help"}); }
void BM_StartListPlacers(benchmark::State& state) { spawn_placesim(state, {"list", "placers"}); }
BENCHMARK(BM_StartHelp)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StartListPlacers)->UseManualTime()->Unit(benchmark::kMillisecond);

// `placesim simulate --plan P --hardware sortinghat-v100 --graph G` on the 100k-op graph and
// its round-robin plan, saved once.
void BM_SimulateSavedPlan(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  const std::string dir = (std::filesystem::temp_directory_path() / fmt::format("placesim-bench-{}", ::getpid())).string();
  write_file_atomic(dir + "/graph.json", models::graph_to_json(*p.graph));
  write_file_atomic(dir + "/plan.json", scheduler::plan_to_json(round_robin(p), *p.graph, *p.topo));
  spawn_placesim(state, {"simulate", "--plan", dir + "/plan.json", "--hardware", "sortinghat-v100", "--graph",
                         dir + "/graph.json"});
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_SimulateSavedPlan)->Arg(100000)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
