// milp-moirai as a placer: its prediction against the engine (done-when 2), reproducibility
// (3), memory infeasibility, time_limit 0 and weights: host (4), dominator windows and GCOF groups.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/generators/random_dag.hpp"
#include "scheduler/placers/moirai/moirai_instance.hpp"
#include "models/generators/transformer.hpp"
#include "tiny.hpp"

namespace {

using namespace moirai_test;
using placesim::scheduler::PlacerResult;
using placers_test::run_placer;

// Solved to optimality: node and time limits far away, no gap.
// Single-device as the warm start: the MILP's optimum is never worse under the model, and where
// the model is exact the MILP's own plan is returned.
const char* kExact = "{name: milp-moirai, gap: 0, time_limit: 1000, node_limit: 100000, warm: [single-device]}";

void expect_exact(const scheduler::Problem& p, const PlacerResult& r, const std::string& what) {
  ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << what << ": " << r.message;
  ASSERT_TRUE(r.plan && r.predicted_s) << what;
  EXPECT_EQ(r.plan->placer, "milp-moirai") << what << ": " << r.message;
  const double sim = placers_test::simulate(p, *r.plan).makespan;
  EXPECT_NEAR(*r.predicted_s, sim, 1e-6 * sim) << what;
}

// Each ordered GPU pair is its own link direction, each transfer of one producer to one GPU
// one delivery on that channel's queue, in MILP order: the engine runs the MILP's schedule, so
// the prediction is the simulation. Also with `network: ideal` (transfers free).
TEST(MoiraiEngine, PredictionIsTheSimulationWhenEveryChannelHasItsOwnLink) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Tiny t = tiny(100 + seed, 5 + static_cast<int>(seed % 3), 2 + static_cast<int>(seed % 2), 0.4);
    expect_exact(t.problem, run_placer(kExact, t.problem), fmt::format("links seed {}", seed));
    const Tiny ideal = tiny(200 + seed, 7, 3, 0.4, true);
    expect_exact(ideal.problem, run_placer(kExact, ideal.problem), fmt::format("ideal seed {}", seed));
  }
}

// moirai-intraserver: every GPU pair is one link (MOIRAI's Table III), roofline durations with
// launch cost, transfers of activations by bytes.
TEST(MoiraiEngine, PredictionIsTheSimulationOnTheIntraserverPreset) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto p = placers_test::random_dag_on("moirai-intraserver", seed, 3, 2, 2);
    expect_exact(p, run_placer(kExact, p), fmt::format("intraserver seed {}", seed));
  }
}

// Where channels share links (two GPUs behind one PCIe switch), transfers the model runs in
// parallel share bandwidth in the engine: they take at least their model time, the plan's
// orders are fixed, so the simulation is never shorter than the prediction.
TEST(MoiraiEngine, SharedLinksOnlySlowTheSimulation) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto p = placers_test::random_dag_on("pcie-4gpu-2bus", seed, 3, 3, 3);
    const PlacerResult r = run_placer("{name: milp-moirai, time_limit: 1000, node_limit: 20, warm: [single-device]}", p);
    ASSERT_TRUE(r.plan && r.predicted_s) << r.message;
    if (r.plan->placer != "milp-moirai") continue;  // the warm start simulated faster
    EXPECT_GE(placers_test::simulate(p, *r.plan).makespan, *r.predicted_s * (1 - 1e-9)) << "seed " << seed;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(MoiraiPlacer, SameNodeLimitSamePlan) {
  const auto p = placers_test::random_dag_on("moirai-intraserver", 5, 4, 2);
  const char* spec_yaml = "{name: milp-moirai, time_limit: 1000000, node_limit: 10}";
  const PlacerResult a = run_placer(spec_yaml, p), b = run_placer(spec_yaml, p);
  ASSERT_TRUE(a.plan && b.plan);
  EXPECT_TRUE(*a.plan == *b.plan);
  EXPECT_EQ(a.predicted_s, b.predicted_s);
  EXPECT_EQ(a.status, b.status);
}

// g0 holds 1000 bytes; op0 runs only on g0 and outputs 2000 bytes. g1 is unlimited, so g0's
// memory alone binds.
TEST(MoiraiPlacer, MemoryInfeasibleNamesTheBindingDevice) {
  models::Graph g;
  for (int i = 0; i < 3; ++i) {
    models::Node n;
    n.name = fmt::format("op{}", i);
    n.type = "op";
    n.output_bytes = i == 0 ? 2000 : 10;
    n.durations["g0"] = 1;
    if (i > 0) n.durations["g1"] = 1;
    g.add_node(n);
  }
  g.add_edge(0, 1, 10);
  g.add_edge(1, 2, 10);
  g.validate();
  const auto p = placers_test::problem(
      std::move(g), hw::load_topology_text("network: ideal\ndevices: [{id: g0, type: gpu, fp32: 1TFLOPS, memory_bw: 1GB/s, "
                                           "memory: 1000}, {id: g1, type: gpu, fp32: 1TFLOPS, memory_bw: 1GB/s, memory: 1e18}]\n",
                                           "mem.yaml"));
  const PlacerResult r = run_placer("milp-moirai", p);
  EXPECT_EQ(r.status, scheduler::RunStatus::Infeasible) << r.message;
  EXPECT_NE(r.message.find("binding: 'g0'"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("'g1'"), std::string::npos) << r.message;
  EXPECT_FALSE(r.plan);
}

TEST(MoiraiPlacer, TimeLimitZeroReturnsTheWarmStart) {
  const Tiny t = tiny(7, 6, 3, 0.4);
  const PlacerResult r = run_placer("{name: milp-moirai, time_limit: 0, warm: [heft]}", t.problem);
  const PlacerResult heft = run_placer("heft", t.problem);
  EXPECT_EQ(r.status, scheduler::RunStatus::Limit);
  ASSERT_TRUE(r.plan);
  EXPECT_TRUE(*r.plan == *heft.plan);
  EXPECT_FALSE(r.predicted_s) << "the warm start is not the MILP model's plan";
}

TEST(MoiraiPlacer, HostWeightsAreRefused) {
  Tiny t = tiny(3, 4, 2, 0.5);
  t.problem.weights = scheduler::WeightsMode::Host;
  const PlacerResult r = run_placer("milp-moirai", t.problem);
  EXPECT_EQ(r.status, scheduler::RunStatus::Error);
  EXPECT_NE(r.message.find("weights resident"), std::string::npos) << r.message;
  EXPECT_FALSE(r.plan);
}

// `n` diamonds a -> {b, c} -> d, each d feeding the next diamond; random durations on three GPUs
// g0..g2 and activations of 0.5 to 2 GB.
models::Graph diamond_chain(int n, std::uint64_t seed) {
  models::Graph g;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0.5, 2);
  int prev = -1;
  for (int d = 0; d < n; ++d) {
    int ids[3];
    for (int k = 0; k < 3; ++k) {
      models::Node n;
      n.name = fmt::format("d{}_{}", d, k);
      n.type = "op";
      n.output_bytes = 1e9 * U(rng);
      for (int gpu = 0; gpu < 3; ++gpu) n.durations[fmt::format("g{}", gpu)] = U(rng);
      ids[k] = g.add_node(n);
    }
    if (prev >= 0) g.add_edge(prev, ids[0], g.nodes[prev].output_bytes), g.add_edge(prev, ids[1], g.nodes[prev].output_bytes);
    g.add_edge(ids[0], ids[2], g.nodes[ids[0]].output_bytes);
    g.add_edge(ids[1], ids[2], g.nodes[ids[1]].output_bytes);
    prev = ids[2];
  }
  g.validate();
  return g;
}

// A chain of diamonds a -> {b, c} -> d -> ...: every `d` dominates what follows, so with
// window 4 each window is one or two diamonds, solved in turn; the whole plan still runs as the
// model says.
TEST(MoiraiPlacer, DominatorWindowsChainIntoOneExactPlan) {
  Tiny t = tiny(11, 1, 3, 0);
  t.problem.graph = std::make_shared<const models::Graph>(diamond_chain(4, 11));
  const PlacerResult r =
      run_placer("{name: milp-moirai, window: 4, gap: 0, time_limit: 1000, node_limit: 100000, warm: [single-device]}",
                 t.problem);
  EXPECT_NE(r.message.find("4 solves, 4 optimal"), std::string::npos) << r.message;  // one window per diamond
  expect_exact(t.problem, r, "windows");
}

// MOIRAI solves the whole graph as one MILP: with window auto (the default), 11 diamonds (33
// tasks, more than the fallback windows' 30) are one solve; window: 30 cuts them in two.
TEST(MoiraiPlacer, AutoWindowSolvesTheWholeGraphOnce) {
  Tiny t = tiny(11, 1, 3, 0);
  t.problem.graph = std::make_shared<const models::Graph>(diamond_chain(11, 11));
  const PlacerResult whole = run_placer("{name: milp-moirai, time_limit: 1000, node_limit: 200, warm: [single-device]}", t.problem);
  EXPECT_EQ(whole.message.rfind("1 solve,", 0), 0u) << whole.message;
  EXPECT_EQ(whole.message.find("windows"), std::string::npos) << whole.message;
  expect_exact(t.problem, whole, "whole");
  const PlacerResult cut =
      run_placer("{name: milp-moirai, window: 30, time_limit: 1000, node_limit: 200, warm: [single-device]}", t.problem);
  EXPECT_EQ(cut.message.rfind("2 solves,", 0), 0u) << cut.message;
}

// A DAG whose ops all start from inputs has no dominator to cut at: it is cut into runs of
// `window` tasks in topological order, each solved with the runs before it fixed.
TEST(MoiraiPlacer, WideGraphsAreCutIntoRuns) {
  const Tiny t = tiny(17, 8, 2, 0.3);
  const PlacerResult r =
      run_placer("{name: milp-moirai, window: 3, gap: 0, time_limit: 1000, node_limit: 100000, warm: [single-device]}",
                 t.problem);
  EXPECT_EQ(r.message.rfind("1 solve,", 0), std::string::npos) << r.message;
  expect_exact(t.problem, r, "runs");
}

// With no warm start and no time, the whole graph's MILP ends without a plan: the windows
// stand in, and the message says so.
TEST(MoiraiPlacer, WindowsStandInWhenTheWholeGraphFindsNoPlan) {
  Tiny t = tiny(11, 1, 3, 0);
  t.problem.graph = std::make_shared<const models::Graph>(diamond_chain(11, 11));
  const PlacerResult r = run_placer("{name: milp-moirai, time_limit: 1e-6, warm: none}", t.problem);
  EXPECT_NE(r.message.find("the whole graph's MILP (33 tasks) found no plan in its limits; windows of 30 tasks stood in"),
            std::string::npos)
      << r.message;
}

// conv -> bn -> relu is one GCOF group (Table I): its ops share a device, and the MILP has one
// task for it.
TEST(MoiraiPlacer, FusedGroupsArePlacedTogether) {
  Tiny t = tiny(13, 1, 2, 0);
  models::Graph g;
  const char* types[] = {"conv", "bn", "relu", "conv", "bn", "relu"};
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> U(0.5, 2);
  for (int i = 0; i < 6; ++i) {
    models::Node n;
    n.name = fmt::format("op{}", i);
    n.type = types[i];
    n.output_bytes = 1e9;
    for (int gpu = 0; gpu < 2; ++gpu) n.durations[fmt::format("g{}", gpu)] = U(rng);
    g.add_node(n);
    if (i > 0) g.add_edge(i - 1, i, 1e9);
  }
  g.add_edge(0, 3, 1e9);  // op0 feeds two ops: multi-output, never fused with them
  g.validate();
  t.problem.graph = std::make_shared<const models::Graph>(std::move(g));
  const auto c = scheduler::moirai::coarse_tasks(t.problem, placesim::models::eigen_fusion_rules());
  // op0 (multi-output), op1 and op2 ([bn, relu] only part of a rule: unbound), op3+op4+op5.
  EXPECT_EQ(c.members.size(), 4u);
  const PlacerResult r = run_placer(kExact, t.problem);
  expect_exact(t.problem, r, "coarsened");
  for (const auto& m : c.members)
    for (int v : m) EXPECT_EQ(r.plan->device_of[v], r.plan->device_of[m.front()]);
}

// CBC 2.10's preprocessing failed an assertion (OsiClpSolverInterface::crunch, SIGABRT) in the
// second window of this placement: GPT-3 175B, 5 layers, coarsened, on the SortingHat V100
// station. With preprocessing off it solves, and every window is proven optimal.
TEST(MoiraiPlacer, Gpt3WindowsSolveWithoutTakingTheProcessDown) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.layers = 5;
  spec.seq = 128;
  spec.dtype = models::DType::FP16;
  const auto p = placers_test::problem(models::generate_transformer(spec),
                                       hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "test")));
  const PlacerResult r = run_placer("{name: milp-moirai, time_limit: 30}", p);
  EXPECT_EQ(r.status, scheduler::RunStatus::Ok) << r.message;
  EXPECT_TRUE(r.plan);
}

}  // namespace
