// milp-sortinghat and efficientmip as placers: the pair of GPUs chosen on the V100 station
// (done-when 3), reproducible plans (4), memory infeasibility and time_limit 0 (5).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <set>

#include "graphs.hpp"
#include "models/generators/random_dag.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace sortinghat_test {
namespace {

using namespace placers_test;

scheduler::Problem v100_problem(const models::Graph& g) {
  return problem(g, hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
}

std::vector<std::string> v100_gpus() { return {"gpu0", "gpu1", "gpu2", "gpu3"}; }

// Done-when 3. A transfer-bound chain (4 ops of 10 us, each reading a 48 MB weight: 4 ms a copy
// over one 12 GB/s bus) on at most two GPUs: the weights come faster over two buses than over
// one shared by both GPUs (gpu0+gpu1 share bus0, gpu2+gpu3 bus1), so the pair spans the buses.
TEST(SortingHatPlacer, PicksTwoGpusOnSeparateBuses) {
  GraphSpec spec;
  spec.ops = 4;
  spec.param_bytes = 48e6;
  spec.seconds = {1e-5};
  spec.gpus = v100_gpus();
  const auto p = v100_problem(make_graph(spec));
  const auto r = run_placer("{name: milp-sortinghat, gpus: 2, q: 2, warm: [single-device], node_limit: 2000}", p);
  ASSERT_TRUE(r.plan) << r.message;
  EXPECT_EQ(r.plan->placer, "milp-sortinghat") << r.message;  // the MILP's plan, not the warm start
  std::set<int> used;
  for (int op : p.graph->ops()) used.insert(r.plan->device_of[op]);
  ASSERT_EQ(used.size(), 2u) << r.message;
  const auto bus = [&](int dev) { return p.topo->route(p.topo->host_memory_for(dev), dev)->hops.front().link; };
  EXPECT_NE(bus(*used.begin()), bus(*used.rbegin())) << r.message;
  EXPECT_LE(simulate(p, *r.plan).makespan, simulate(p, *run_placer("{name: single-device, device: gpu0}", p).plan).makespan);
}

// Done-when 4: node_limit and no time limit: the same plan twice.
TEST(SortingHatPlacer, NodeLimitGivesIdenticalPlans) {
  GraphSpec spec;
  spec.ops = 4;
  spec.param_bytes = 8e6;
  spec.seconds = {2e-4, 5e-4, 1e-4};
  spec.gpus = v100_gpus();
  spec.density = 0.5;
  spec.seed = 3;
  const auto p = v100_problem(make_graph(spec));
  for (const char* name : {"milp-sortinghat", "efficientmip"}) {
    const std::string opts = fmt::format("{{name: {}, q: 2, node_limit: 20, time_limit: 1e9}}", name);
    const auto a = run_placer(opts, p);
    const auto b = run_placer(opts, p);
    ASSERT_TRUE(a.plan && b.plan) << name << ": " << a.message;
    EXPECT_TRUE(*a.plan == *b.plan) << name;
    EXPECT_EQ(a.predicted_s, b.predicted_s) << name;
  }
}

// Done-when 5: memory no schedule fits -> infeasible naming the GPU; time_limit 0 -> the warm start.
TEST(SortingHatPlacer, InfeasibleMemoryNamesTheGpu) {
  GraphSpec spec;
  spec.ops = 2;
  spec.output_bytes = 2e6;  // each op's output alone exceeds the GPU
  spec.seconds = {1e-3};
  spec.gpus = {"g0"};
  const std::string topo =
      "devices: [{id: host, type: host_memory, memory: 1e12}, {id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: "
      "900GB/s, memory: 1e6}]\nlinks: [{a: host, b: g0, bw: 10GB/s}]\n";
  const auto p = problem(make_graph(spec), hw::load_topology_text(topo, "t.yaml"), scheduler::WeightsMode::Host);
  for (const char* name : {"milp-sortinghat", "efficientmip"}) {
    const auto r = run_placer(fmt::format("{{name: {}, q: 2}}", name), p);
    EXPECT_EQ(r.status, scheduler::RunStatus::Infeasible) << name << ": " << r.message;
    EXPECT_NE(r.message.find("'g0'"), std::string::npos) << r.message;
  }
}

TEST(SortingHatPlacer, TimeLimitZeroReturnsTheWarmStart) {
  GraphSpec spec;
  spec.ops = 3;
  spec.seconds = {1e-3};
  spec.gpus = v100_gpus();
  const auto p = v100_problem(make_graph(spec));
  for (const char* name : {"milp-sortinghat", "efficientmip"}) {
    const auto r = run_placer(fmt::format("{{name: {}, time_limit: 0, warm: [single-device]}}", name), p);
    EXPECT_EQ(r.status, scheduler::RunStatus::Limit) << name;
    ASSERT_TRUE(r.plan);
    EXPECT_EQ(r.plan->placer, "single-device");
  }
}

// warm: none: no heuristic and no start; CBC finds a schedule by itself on a small graph.
TEST(SortingHatPlacer, WarmNoneSolvesFromNothing) {
  GraphSpec spec;
  spec.ops = 3;
  spec.seconds = {1e-3};
  spec.gpus = v100_gpus();
  const auto p = v100_problem(make_graph(spec));
  const auto r = run_placer("{name: milp-sortinghat, q: 2, warm: none, node_limit: 200, time_limit: 1e9}", p);
  ASSERT_TRUE(r.plan) << r.message;
  EXPECT_EQ(r.plan->placer, "milp-sortinghat") << r.message;
  EXPECT_EQ(r.message.find("warm start"), std::string::npos) << r.message;
}

// Limits under a second used to stop CBC inside its preprocessing, and CBC 2.10 then crashed
// in CglPreProcess::postProcess (this graph at 0.25 s, every time). Now the limit stops only
// the search: every limit gives a plan, and never a dead process.
TEST(SortingHatPlacer, ShortTimeLimitsNeverCrash) {
  const auto p = random_dag_on("sortinghat-v100", 1, 6, 4, 0.5);
  for (const char* limit : {"0.1", "0.25", "0.5"}) {
    const auto r = run_placer(fmt::format("{{name: milp-sortinghat, time_limit: {}}}", limit), p);
    EXPECT_TRUE(r.status == scheduler::RunStatus::Ok || r.status == scheduler::RunStatus::Limit) << limit << ": " << r.status << ": " << r.message;
    EXPECT_TRUE(r.plan) << limit;
  }
}

// q is at least 1 (EfficientMIP) or an even number >= 2 (SortingHat: DHA and copy slots in
// turn), checked at its key.
TEST(SortingHatPlacer, QBelowOneOrOddWithDhaIsBadInput) {
  for (const char* bad : {"{name: efficientmip, q: 0}", "{name: efficientmip, q: -2}", "{name: milp-sortinghat, q: 0}",
                          "{name: milp-sortinghat, q: 3}"}) {
    try {
      scheduler::make_placer(Yaml::load_string(bad, "s.yaml"));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("s.yaml:1:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("q must be"), std::string::npos) << e.what();
    }
  }
  EXPECT_NO_THROW(scheduler::make_placer(Yaml::load_string("{name: efficientmip, q: 1}", "s.yaml")));
  EXPECT_NO_THROW(scheduler::make_placer(Yaml::load_string("{name: milp-sortinghat, q: 3, dha: false}", "s.yaml")));
}

// The per-submodel budget is a positive number of seconds, checked at its key.
TEST(SortingHatPlacer, SubmodelLimitMustBePositive) {
  for (const char* bad : {"{name: milp-sortinghat, submodel_limit: 0}", "{name: milp-sortinghat, submodel_limit: -3}"}) {
    try {
      scheduler::make_placer(Yaml::load_string(bad, "s.yaml"));
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("submodel_limit must be > 0 seconds"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("s.yaml:1:", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace sortinghat_test
