// One conformance suite over every registered placer that makes plans (as ns-3 runs one suite
// over every scheduler), on seeded random DAGs and several topologies:
//   * the plan is valid: every op placed once on a device that can run it and computed exactly
//     once, every op starts after its producers end, memory stays within capacity;
//   * the simulated makespan is >= the critical-path bound;
//   * under `network: ideal`, fixed durations and edge times and no launch cost, the placer's
//     own prediction equals the simulated makespan within 1e-9 relative. (Op times of about a
//     second keep the engine's picosecond rounding far below that.)
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <map>

#include "models/generators/random_dag.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

// Ideal networks (memory plenty: durations-mode outputs are ~ccr * 1 s * 10 GB/s): GPUs only, GPUs and a one-core CPU (a core is the whole CPU, so Chrion's
// per-core model is the engine's), and CPUs only.
struct IdealCase {
  const char* yaml;
  std::vector<std::string> devices;
};
const std::vector<IdealCase>& ideal_cases() {
  static const std::vector<IdealCase> cases = {
      {"network: ideal\ndevices: [{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
       " {id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18}]\n",
       {"g0", "g1"}},
      {"network: ideal\ndevices: [{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
       " {id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
       " {id: g2, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18},"
       " {id: c0, type: cpu, cores: 1, fp32: 1TFLOPS, memory_bw: 100GB/s}]\n",
       {"g0", "g1", "g2", "c0"}},
      {"network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
       " {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s},"
       " {id: p3, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n",
       {"p1", "p2", "p3"}},
  };
  return cases;
}

std::vector<std::string> plan_placers() {
  std::vector<std::string> out;
  for (auto& [name, entry] : scheduler::placers().all())
    if (entry.kind != scheduler::PlacerKind::Bound && entry.kind != scheduler::PlacerKind::Given && !entry.splits_ops &&
        !entry.offload)
      out.push_back(name);  // tensor-parallel and offload placers take transformer graphs only: their own tests
  return out;
}

double bound(const scheduler::Problem& p) { return *run_placer("critical-path", p).predicted_s; }

// Each op computed exactly once, on its plan device; producers end before consumers start;
// memory within capacity.
void expect_valid(const scheduler::Problem& p, const scheduler::Plan& plan, const Simulated& s, const std::string& what) {
  const auto& g = *p.graph;
  std::map<int, int> computed;
  for (const auto& q : plan.queues)
    for (const auto& it : q.items)
      if (it.kind == scheduler::PlanItem::Kind::Compute) ++computed[it.node];
  std::vector<int> task_of(g.nodes.size(), -1);
  for (size_t t = 0; t < s.lowered.graph.tasks.size(); ++t) {
    const auto& task = s.lowered.graph.tasks[t];
    if (task.op >= 0 && (task.kind == engine::TaskKind::Compute || task.kind == engine::TaskKind::Dha))
      task_of[task.op] = static_cast<int>(t);
  }
  for (int op : g.ops()) {
    EXPECT_EQ(computed[op], 1) << what << ": " << g.nodes[op].name;
    ASSERT_GE(plan.device_of[op], 0) << what;
    EXPECT_NE(p.duration(op, plan.device_of[op]), models::kCannotRun) << what;
    ASSERT_GE(task_of[op], 0) << what;
    for (int e : g.in_edges(op)) {
      const int u = g.edges[e].src;
      if (g.nodes[u].kind != models::NodeKind::Op) continue;
      EXPECT_LE(s.trace.tasks[task_of[u]].end, s.trace.tasks[task_of[op]].start)
          << what << ": " << g.nodes[u].name << " -> " << g.nodes[op].name;
    }
  }
  const auto mem = scheduler::check_memory(p, s.lowered, s.trace);
  EXPECT_EQ(mem.over_device, "") << what;
}

TEST(Conformance, IdealNetworkPredictionsAreExact) {
  int checked = 0;
  for (const IdealCase& c : ideal_cases()) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      models::RandomDagSpec spec;
      spec.seed = seed;
      spec.depth = 3 + static_cast<int>(seed % 6);
      spec.width = 2 + static_cast<int>(seed % 4);
      spec.density = 0.3 + 0.05 * static_cast<double>(seed % 5);
      spec.jump = 1 + static_cast<int>(seed % 2);
      spec.ccr = seed % 3 == 0 ? 0.1 : (seed % 3 == 1 ? 1.0 : 5.0);
      spec.devices = c.devices;
      spec.mean = 1.0;
      spec.beta = 1.0;
      const auto p = problem(models::generate_random_dag(spec), hw::load_topology_text(c.yaml, "ideal.yaml"));
      const double cp = bound(p);
      for (const std::string& name : plan_placers()) {
        const std::string what = fmt::format("{} on {} seed {}", name, c.devices.front(), seed);
        if (is_milp(name) && seed > 3) continue;  // a quarter second each: three graphs per case
        if (p.topo->gpus().empty() && (name == "chrion" || name == "deepplan")) {
          EXPECT_THROW(run_placer(name, p), InputError) << what << ": needs a GPU";
          continue;
        }
        const auto r = run_placer(suite_spec(name), p);
        ASSERT_TRUE(solved(r, name)) << what << ": " << r.status << ": " << r.message;
        ASSERT_TRUE(r.plan) << what;
        const Simulated s = simulate(p, *r.plan);
        expect_valid(p, *r.plan, s, what);
        EXPECT_GE(s.makespan, cp * (1 - 1e-12)) << what;
        // A MILP placer that returns its warm start makes no prediction of it.
        ASSERT_TRUE(r.predicted_s || (is_milp(name) && r.plan->placer != name)) << what;
        if (r.predicted_s) {
          EXPECT_NEAR(*r.predicted_s, s.makespan, 1e-9 * s.makespan) << what;
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(Conformance, RealTopologiesGiveValidPlansAboveTheBound) {
  // Work-mode DAGs (flops and bytes) on presets with PCIe, NVLink and a multi-core CPU, with
  // weights resident; predictions are estimates here (no contention), so only validity and
  // the bound are checked.
  for (const char* preset : {"sortinghat-v100", "pcie-4gpu-2bus", "chrion-1080ti"}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      auto p = random_dag_on(preset, seed, 6, 4, static_cast<double>(seed) * 0.5);
      const double cp = bound(p);
      for (const std::string& name : plan_placers()) {
        const std::string what = fmt::format("{} on {} seed {}", name, preset, seed);
        if (is_milp(name) && seed > 2) continue;
        const auto r = run_placer(suite_spec(name), p);
        ASSERT_TRUE(solved(r, name)) << what << ": " << r.status << ": " << r.message;
        const Simulated s = simulate(p, *r.plan);
        expect_valid(p, *r.plan, s, what);
        EXPECT_GE(s.makespan, cp * (1 - 1e-12)) << what;
        EXPECT_TRUE(r.predicted_s || (is_milp(name) && r.plan->placer != name)) << what;
      }
    }
  }
}

TEST(Conformance, MemoryConstrainedPlacersKeepWithinCapacity) {
  // Four GPUs of 1 MB each; 40 ops whose outputs total well over one GPU's memory. The
  // m-* placers book memory, so every plan fits, or the result says infeasible.
  models::RandomDagSpec spec;
  spec.seed = 7;
  spec.depth = 10;
  spec.width = 4;
  spec.ccr = 1;
  auto g = models::generate_random_dag(spec);
  double total = 0;
  for (int op : g.ops()) total += g.nodes[op].output_bytes;
  const double cap = total / 3;
  const std::string topo = fmt::format(
      "network: ideal\ndevices: [{{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: {0}}},"
      " {{id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: {0}}},"
      " {{id: g2, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: {0}}},"
      " {{id: g3, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: {0}}}]\n",
      static_cast<long long>(cap));
  const auto p = problem(std::move(g), hw::load_topology_text(topo, "small.yaml"));
  for (const char* name : {"m-topo", "m-etf", "m-sct"}) {
    const auto r = run_placer(name, p);
    ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << name << ": " << r.message;
    const Simulated s = simulate(p, *r.plan);
    expect_valid(p, *r.plan, s, name);
  }
  // Too little memory in all: an infeasible result naming an op, not an exception.
  const std::string tiny = "network: ideal\ndevices: [{id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1000}]\n";
  const auto q = problem(models::generate_random_dag(spec), hw::load_topology_text(tiny, "tiny.yaml"));
  for (const char* name : {"m-topo", "m-etf", "m-sct"}) {
    const auto r = run_placer(name, q);
    EXPECT_EQ(r.status, scheduler::RunStatus::Infeasible) << name;
    EXPECT_NE(r.message.find("fits in the memory left on no device"), std::string::npos) << r.message;
  }
}

}  // namespace
