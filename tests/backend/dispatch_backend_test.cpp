// The runtime's dispatch thread on the CPU backend (docs/execution.md, "The runtime"): two ops
// of 2 ms each, a on core 0 and b on core 1, independent. Without a runtime they run side by
// side; with one dispatch thread, b's dispatch waits for a to end (a CPU op holds its thread),
// so the measured trace shows b starting after a has ended, as the simulation does.
#include <gtest/gtest.h>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/workload.hpp"
#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/graph_json.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/json.hpp"
#include "sim/engine/executor.hpp"
#include "app/explore/validate_workload.hpp"

namespace placesim::explore {
namespace {

struct Both {
  engine::TaskGraph graph;
  engine::Trace simulated, measured;
  double start(const engine::Trace& t, const char* task) const { return to_seconds(t.tasks[graph.find_task(task)].start); }
  double end(const engine::Trace& t, const char* task) const { return to_seconds(t.tasks[graph.find_task(task)].end); }
};

Both run_both(const std::string& runtime) {
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology_text(runtime + R"(devices:
  - {id: host, type: host_memory, memory: 1GiB}
  - {id: cpu, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 10GB/s}
links: [{a: cpu, b: host, bw: 10GB/s}]
)", "rt.yaml"));
  p.graph = std::make_shared<const models::Graph>(models::parse_graph(Json::load_string(
      R"({"nodes": [{"name": "a", "durations": {"cpu": 2e-3}}, {"name": "b", "durations": {"cpu": 2e-3}}], "edges": []})",
      "g.json")));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Resident;
  const scheduler::Plan plan = scheduler::parse_plan(Json::load_string(R"({"devices": {"a": "cpu", "b": "cpu"},
    "cpu_cores": {"cpu": 2},
    "queues": [{"name": "cpu.core0", "tasks": ["a"]}, {"name": "cpu.core1", "tasks": ["b"]}]})", "plan.json"),
                                                     *p.graph, *p.topo);
  const scheduler::Lowered low = scheduler::lower(p, plan);
  Both r{low.graph, engine::simulate(low.graph), {}};
  backend::BackendOptions opts;
  opts.warmup = 0;
  opts.repeats = 1;
  r.measured = backend::run_cpu(low.graph, make_workload(p, plan, low), opts).trace;
  return r;
}

TEST(DispatchBackend, OneThreadSerialisesCpuOpsInTheMeasuredTrace) {
  const Both r = run_both("runtime: {dispatch_threads: 1}\n");
  EXPECT_GE(r.start(r.simulated, "b"), r.end(r.simulated, "a"));
  EXPECT_GE(r.start(r.measured, "b/dispatch"), r.end(r.measured, "a"));
  EXPECT_GE(r.start(r.measured, "b"), r.end(r.measured, "a"));
  EXPECT_GE(to_seconds(r.measured.makespan), 4e-3);
}

TEST(DispatchBackend, WithoutARuntimeTheCoresRunSideBySide) {
  const Both r = run_both("");
  EXPECT_LT(r.graph.find_task("a/dispatch"), 0);
  EXPECT_LT(r.start(r.simulated, "b"), r.end(r.simulated, "a"));
  // Both spin at once on their own cores: b starts long before a's 2 ms are over, even on a
  // loaded machine.
  EXPECT_LT(r.start(r.measured, "b"), r.end(r.measured, "a"));
}

// What calibrate times as the backend's dispatch per op: a host thread hands each empty op to
// core 0 and waits for it before the next, so the measured trace alternates strictly.
TEST(DispatchBackend, TheCalibrationsChainAlternatesThreadAndCore) {
  const backend::EmptyChain chain = backend::dispatched_chain(50);
  ASSERT_EQ(chain.graph.tasks.size(), 100u);
  backend::BackendOptions opts;
  opts.warmup = 0;
  opts.repeats = 1;
  const engine::Trace t = backend::run_cpu(chain.graph, chain.workload, opts).trace;
  for (std::size_t i = 1; i < t.tasks.size(); ++i) EXPECT_GE(t.tasks[i].start, t.tasks[i - 1].end) << chain.graph.name(i);
}

}  // namespace
}  // namespace placesim::explore
