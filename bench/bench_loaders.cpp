// Large inputs and start-up. A seeded random layered DAG (width 100, mean out-degree about 4, as
// bench_placers) of 10k and 100k ops and its round-robin and HEFT plans on the SortingHat V100
// preset: the graph and the plans written to JSON and read back (parse_graph, parse_plan), each
// of which should take time linear in the ops (the 100k rows about ten times the 10k ones); and
// the saved 100k-op plans read from their files and re-simulated by `placesim simulate`, end to
// end.
// Start-up: the placesim binary spawned for `--help` and `list placers`, the child's wall time.
// Clusters: a leaf-spine cluster of DGX A100 nodes (8 GPUs and 8 NICs each, 32 NICs per leaf,
// 16 spines) loaded, and a two-op graph across its first and last GPU simulated on it by
// `placesim simulate`, end to end: 512 nodes are 4096 GPUs; and HEFT's plan on it, which routes
// every pair of compute devices.
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
#include "scheduler/plan/json.hpp"
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

// The plans saved and read back: round-robin's (one queue per device) and HEFT's, whose every
// transfer between devices sits on a queue of its own (list_schedule.hpp), so that a 100k-op
// plan names about 190k queues.
constexpr const char* kPlacers[] = {"round-robin", "heft"};

scheduler::Plan placed(const scheduler::Problem& p, std::int64_t placer) {
  return *scheduler::make_placer(Yaml(YAML::Node(kPlacers[placer]), "bench")).placer->place(p).plan;
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
  const scheduler::Plan plan = placed(p, state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(scheduler::plan_to_json(plan, *p.graph, *p.topo).size());
  state.SetLabel(kPlacers[state.range(1)]);
}

void BM_LoadPlan(benchmark::State& state) {
  const scheduler::Problem p = problem(static_cast<int>(state.range(0)));
  const std::string text = scheduler::plan_to_json(placed(p, state.range(1)), *p.graph, *p.topo);
  for (auto _ : state)
    benchmark::DoNotOptimize(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo).queues.size());
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.SetLabel(kPlacers[state.range(1)]);
}

BENCHMARK(BM_WriteGraph)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadGraph)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WritePlan)->ArgsProduct({{10000, 100000}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadPlan)->ArgsProduct({{10000, 100000}, {0, 1}})->Unit(benchmark::kMillisecond);

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

// The 100k-op graph and a plan of it saved to files in a directory of their own, removed after.
struct SavedPlan {
  std::string dir, graph, plan;
  SavedPlan(int ops, std::int64_t placer)
      : dir((std::filesystem::temp_directory_path() / fmt::format("placesim-bench-{}", ::getpid())).string()),
        graph(dir + "/graph.json"), plan(dir + "/plan.json") {
    const scheduler::Problem p = problem(ops);
    write_file_atomic(graph, models::graph_to_json(*p.graph));
    write_file_atomic(plan, scheduler::plan_to_json(placed(p, placer), *p.graph, *p.topo));
  }
  ~SavedPlan() { std::filesystem::remove_all(dir); }
};

// What `placesim simulate` reads before it lowers: the graph file, then the plan file against it.
void BM_LoadSavedPlan(benchmark::State& state) {
  const SavedPlan saved(static_cast<int>(state.range(0)), state.range(1));
  const hw::Topology topo = hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "bench"));
  for (auto _ : state) {
    const models::Graph g = models::load_graph_json(saved.graph);
    benchmark::DoNotOptimize(scheduler::load_plan_json(saved.plan, g, topo).queues.size());
  }
  state.SetLabel(kPlacers[state.range(1)]);
}
BENCHMARK(BM_LoadSavedPlan)->Args({100000, 0})->Args({100000, 1})->Unit(benchmark::kMillisecond)->Iterations(2);

// `placesim simulate --plan P --hardware sortinghat-v100 --graph G --weights resident` on the
// saved files, end to end: load, lower, simulate, report.
void BM_SimulateSavedPlan(benchmark::State& state) {
  const SavedPlan saved(static_cast<int>(state.range(0)), state.range(1));
  spawn_placesim(state, {"simulate", "--plan", saved.plan, "--hardware", "sortinghat-v100", "--graph", saved.graph,
                         "--weights", "resident"});
  state.SetLabel(kPlacers[state.range(1)]);
}
BENCHMARK(BM_SimulateSavedPlan)->Args({100000, 0})->Args({100000, 1})->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(2);

// The cluster file of `nodes` DGX A100 nodes.
std::string cluster(std::int64_t nodes) {
  return fmt::format(
      "name: dgx-cluster\nnode_templates: {{dgx: {{include: dgx-a100}}}}\nnodes: [{{template: dgx, count: {}}}]\n"
      "fabric: {{type: leaf-spine, leaf_size: 32, spines: 16, link: {{bw: 22.5GB/s, latency: 0.5us, kind: ib}}, "
      "uplink: {{bw: 45GB/s, latency: 0.5us, kind: ib}}}}\n",
      nodes);
}

void BM_LoadCluster(benchmark::State& state) {
  const std::string text = cluster(state.range(0));
  size_t devices = 0, links = 0;
  for (auto _ : state) {
    const hw::Topology t = hw::load_topology_text(text, "cluster.yaml");
    devices = t.devices.size(), links = t.links.size();
  }
  state.counters["devices"] = static_cast<double>(devices);
  state.counters["links"] = static_cast<double>(links);
}
BENCHMARK(BM_LoadCluster)->Arg(128)->Arg(512)->Arg(2048)->Unit(benchmark::kMillisecond)->Iterations(1);

// Op a on the first GPU sends 1 MB to op b on the last, across the spines.
void BM_SimulateOnCluster(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("placesim-bench-cluster-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string hw = (dir / "cluster.yaml").string(), graph = (dir / "tiny.json").string(),
                    plan = (dir / "plan.json").string();
  write_file_atomic(hw, cluster(state.range(0)));
  write_file_atomic(graph, R"({"name": "tiny", "nodes": [{"name": "a", "flops": 1e9, "bytes": 1e6, "output_bytes": 1e6},
    {"name": "b", "flops": 1e9, "bytes": 1e6}], "edges": [{"src": "a", "dst": "b"}]})");
  write_file_atomic(plan, fmt::format(R"({{"placer": "bench", "devices": {{"a": "n0.gpu0", "b": "n{}.gpu7"}}}})",
                                      state.range(0) - 1));
  spawn_placesim(state, {"simulate", "--plan", plan, "--hardware", hw, "--graph", graph, "--weights", "resident"});
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_SimulateOnCluster)->Arg(128)->Arg(512)->Arg(2048)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);

// HEFT's plan of one decode layer on the same cluster, by `placesim plan`: its model of transfers
// asks the route of every ordered pair of compute devices (4.5 x 10^6 at 256 nodes), each once
// and kept nowhere (hw::Topology::route_once).
void BM_PlanHeftOnCluster(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("placesim-bench-heft-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string scenario = (dir / "heft.yaml").string(), plan = (dir / "plan.json").string();
  write_file_atomic((dir / "cluster.yaml").string(), cluster(state.range(0)));
  write_file_atomic(scenario, "name: heft-cluster\nhardware: {include: cluster.yaml}\n"
                              "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 16, "
                              "phase: decode, dtype: fp16}\nweights: resident\nplacers: [heft]\n");
  spawn_placesim(state, {"plan", scenario, "--placer", "heft", "-o", plan});
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_PlanHeftOnCluster)->Arg(64)->Arg(128)->Arg(256)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
