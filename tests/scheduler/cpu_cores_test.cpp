// CPU cores as lower() gives them to the engine (docs/execution.md, "CPU cores"): each core its own
// resource, so an op on one core never runs faster than one core, whatever the others do.
//
// The CPU: 16 cores, 16 GFLOPS together, so 1 GFLOPS a core; ops of 1 GFLOP, no bytes, no launch
// cost. With no contention curve the cost model's duration on k cores is d_k = 1 / k s, and one
// of k busy cores runs an op in W = k * d_k = 1 s.
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

constexpr const char* kCpu16 =
    "devices:\n  - {id: host, type: host_memory, memory: 64GiB}\n"
    "  - {id: cpu0, type: cpu, cores: 16, fp32: 16GFLOPS, memory_bw: 100GB/s}\n"
    "links:\n  - {a: host, b: cpu0, bw: 100GB/s}\n";

constexpr const char* kTwoOps = R"({"nodes": [{"name": "a", "flops": 1e9}, {"name": "b", "flops": 1e9}], "edges": []})";

Problem cpu_problem(const char* topo = kCpu16) {
  return problem(kTwoOps, hw::load_topology_text(topo, "cpu.yaml"), scheduler::WeightsMode::Resident);
}

// A plan with op a on queue qa and op b on queue qb (the same name: one after the other).
Plan on_queues(const Problem& p, const std::string& qa, const std::string& qb, int cores = 0) {
  Plan plan = plan_for(p, {{"a", "cpu0"}, {"b", "cpu0"}});
  if (cores > 0) plan.cpu_cores[p.topo->index("cpu0")] = cores;
  plan.queues.clear();
  const PlanItem a{PlanItem::Kind::Compute, p.graph->find("a"), -1};
  const PlanItem b{PlanItem::Kind::Compute, p.graph->find("b"), -1};
  if (qa == qb) {
    plan.queues.push_back({qa, {a, b}});
  } else {
    plan.queues.push_back({qa, {a}});
    plan.queues.push_back({qb, {b}});
  }
  return plan;
}

TEST(CpuCores, OneCoreOpTakesItsOneCoreDurationWhileTheOthersIdle) {
  // The plan uses all 16 cores (no cpu_cores), but only core 0 and core 5 have work: a alone on
  // core 0 for 1 s, then b; each takes W = 16 * (1/16) = 1 s. A single shared CPU resource
  // would have let a run at the whole CPU's 16 GFLOPS and end at 1/16 s.
  const Problem p = cpu_problem();
  const Outcome serial = run(p, on_queues(p, "cpu0.core0", "cpu0.core0"));
  EXPECT_NEAR(serial.end("a"), 1.0, tol(1));
  EXPECT_NEAR(serial.end("b"), 2.0, tol(2));
  // On two cores at once, each runs on its own core: both end at 1 s.
  const Outcome parallel = run(p, on_queues(p, "cpu0.core0", "cpu0.core5"));
  EXPECT_NEAR(parallel.end("a"), 1.0, tol(1));
  EXPECT_NEAR(parallel.end("b"), 1.0, tol(1));
}

TEST(CpuCores, AnOpOffTheCoreQueuesRunsAcrossThePlansCores) {
  // cpu0.compute is no core: a runs across all 16 cores, d_16 = 1/16 s; with cpu_cores: 4 across
  // cores 0..3, d_4 = 1/4 s. While a (over cores 0..3) and b (core 2 alone, W = 4 * 1/4 = 1 s)
  // overlap, core 2 is shared max-min: each gets half of it, so a's rate is 1/2 of its own and
  // b's 1/2: a needs 1/4 s of core at half speed -> 1/2 s; b then has 1 - 1/4 = 3/4 s of work
  // left alone -> ends at 1/2 + 3/4 = 5/4 s.
  const Problem p = cpu_problem();
  EXPECT_NEAR(run(p, on_queues(p, "cpu0.compute", "cpu0.compute")).end("a"), 1.0 / 16, tol(1));
  const Outcome four = run(p, on_queues(p, "cpu0.compute", "cpu0.core2", 4));
  EXPECT_NEAR(four.end("a"), 0.5, tol(1));
  EXPECT_NEAR(four.end("b"), 1.25, tol(1));
}

TEST(CpuCores, ContentionCurveSlowsEachCoreByItsFactorAtThePlansCount) {
  // contention: w_1 = 1, w_2 = 1.25: with cpu_cores: 2 a core op takes W = d_1 * w_2 = 1.25 s.
  const std::string topo = std::string(kCpu16).replace(std::string(kCpu16).find("memory_bw: 100GB/s}"), 19,
                                                       "memory_bw: 100GB/s, contention: [1, 1.25]}");
  const Problem p = cpu_problem(topo.c_str());
  const Outcome two = run(p, on_queues(p, "cpu0.core0", "cpu0.core1", 2));
  EXPECT_NEAR(two.end("a"), 1.25, tol(1));
  EXPECT_NEAR(two.end("b"), 1.25, tol(1));
}

TEST(CpuCores, CoreQueuesOutsideThePlansCoresAreRejected) {
  const Problem p = cpu_problem();
  try {
    scheduler::lower(p, on_queues(p, "cpu0.core0", "cpu0.core3", 2));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'cpu0.core3' is core 3 of 'cpu0', but the plan runs its ops on 2"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(scheduler::lower(p, on_queues(p, "cpu0.core0", "cpu0.core16")), InputError);  // 16 cores: 0..15
  EXPECT_THROW(scheduler::lower(p, on_queues(p, "cpu0.core0", "cpu0.core01")), InputError);  // not canonical
}

}  // namespace
