// Where validate runs a plan's CPU queues (app/explore/validate_workload.hpp, docs/execution.md, "CPU
// cores"): a queue of ops spans the plan's k cores, `<cpu>.core<j>` is core j alone, a copy
// queue one core. The LSTM scenario's hardware has one CPU `cpu` with 2 cores.
#include <gtest/gtest.h>

#include "scheduler/lower/lower.hpp"
#include "sim/core/error.hpp"
#include "app/explore/runner.hpp"
#include "app/explore/scenario.hpp"
#include "app/explore/validate_workload.hpp"

namespace placesim::explore {
namespace {

struct Placed {
  scheduler::Problem problem;
  scheduler::Plan plan;
};

Placed lstm_on_one_cpu() {
  const Scenario s = load_scenario(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/validate/lstm.yaml");
  Placed p{build_problem(s, s.points.at(0)), {}};
  p.plan = *run_placer(p.problem, s.placers.at(0), "").plan;
  return p;
}

// The unit of the plan's only queue (the lowering adds the runtime's dispatch thread after it:
// the calibrated machine declares one).
backend::Unit queue_unit(const Placed& p) {
  const scheduler::Lowered low = scheduler::lower(p.problem, p.plan);
  const backend::Workload w = make_workload(p.problem, p.plan, low);
  EXPECT_EQ(p.plan.queues.size(), 1u);
  EXPECT_EQ(low.graph.queues.size(), 2u);
  EXPECT_EQ(low.graph.queues.at(1), "runtime.dispatch0");
  EXPECT_EQ(w.units.at(static_cast<size_t>(w.queue_unit.at(1))).kind, backend::Unit::Kind::Host);
  return w.units.at(static_cast<size_t>(w.queue_unit.at(0)));
}

TEST(ValidateCores, QueueOfOpsSpansThePlansCores) {
  Placed p = lstm_on_one_cpu();
  const int cpu = p.problem.topo->index("cpu");
  ASSERT_EQ(p.problem.topo->devices[cpu].cores, 2);
  backend::Unit u = queue_unit(p);  // no cpu_cores: all of them
  EXPECT_EQ(u.kind, backend::Unit::Kind::CpuCore);
  EXPECT_EQ(u.index, 0);
  EXPECT_EQ(u.cores, 2);
  p.plan.cpu_cores[cpu] = 1;
  u = queue_unit(p);
  EXPECT_EQ(u.index, 0);
  EXPECT_EQ(u.cores, 1);
}

TEST(ValidateCores, CoreQueueIsThatCoreAlone) {
  Placed p = lstm_on_one_cpu();
  p.plan.cpu_cores[p.problem.topo->index("cpu")] = 2;
  p.plan.queues.at(0).name = "cpu.core1";
  const backend::Unit u = queue_unit(p);
  EXPECT_EQ(u.index, 1);
  EXPECT_EQ(u.cores, 1);
}

TEST(ValidateCores, CoreQueueNames) {
  const Placed p = lstm_on_one_cpu();
  const hw::Topology& t = *p.problem.topo;
  const int cpu = t.index("cpu");
  EXPECT_EQ(cpu_core_queue(t, cpu, "cpu.core0"), 0);
  EXPECT_EQ(cpu_core_queue(t, cpu, "cpu.core1"), 1);
  EXPECT_EQ(cpu_core_queue(t, cpu, "cpu.compute"), -1);
  EXPECT_EQ(cpu_core_queue(t, cpu, "cpu.core"), -1);
  EXPECT_EQ(cpu_core_queue(t, cpu, "cpu.core1x"), -1);
  EXPECT_THROW(cpu_core_queue(t, cpu, "cpu.core2"), InputError);  // 2 cores: core0, core1
}

}  // namespace
}  // namespace placesim::explore
