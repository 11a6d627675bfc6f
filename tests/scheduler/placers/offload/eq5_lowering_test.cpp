// One FFN block sliced CC / CG / GG and lowered (scheduler/placers/offload/cpu_gpu_plan.hpp),
// with nothing else contending: each stream ends where ScheInfer's Eq. 5 puts it, worked here in
// its closed form (Eq. 10-12: tau_G = t_L + t_C2G + t_G + (n_l - 1) max(t_L, t_C2G, t_G), tau_C =
// n_l t_C) from Table I's Testbed-A fits (the scheinfer-a preset: its calibration, GPU launch and
// PCIe link) and the linear cost model.
#include <fmt/format.h>

#include "models/cost/cost_models.hpp"
#include "scheduler/placers/offload/cpu_gpu_plan.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using scheduler::offload::Design;
using scheduler::offload::Expert;
using scheduler::offload::Slicing;

// Table I, Testbed-A, fp16.
constexpr double kAlphaG = 1.0e-7, kBetaG = 3.2e-12, kAlphaC = 7.4e-7, kBetaC = 1.6e-11, kLaunch = 4.4e-5;

// LLaMA-2 7B's MLP without its gate: fc1 [T, M] x [M, H], fc2 [T, H] x [H, M], fp16.
constexpr double M = 4096, H = 11008;

std::string block(double T) {
  return fmt::format(R"({{"dtype": "fp16", "nodes": [
    {{"name": "w1", "param_bytes": {0}}}, {{"name": "w2", "param_bytes": {0}}},
    {{"name": "fc1", "shape": {{"gemm": {{"m": {1}, "n": {2}, "k": {3}, "weight": "b"}}}}, "output_bytes": {4}}},
    {{"name": "fc2", "shape": {{"gemm": {{"m": {1}, "n": {3}, "k": {2}, "weight": "b"}}}}, "output_bytes": {5}}}],
  "edges": [{{"src": "w1", "dst": "fc1"}}, {{"src": "w2", "dst": "fc2"}}, {{"src": "fc1", "dst": "fc2", "bytes": {4}}}]}})",
                     M * H * 2, T, H, M, T * H * 2, T * M * 2);
}

struct Ends {
  double gpu = 0, cpu = 0;
};

// The block at these rates, lowered and simulated: when its last GPU and last CPU slice end.
Ends simulate(double T, Slicing s) {
  Problem p = problem(block(T), preset("scheinfer-a"));
  p.cost = models::cost_models().get("linear").make(Yaml::load_string("linear", "s.yaml"), *p.topo, *p.graph);
  Design d;
  d.cpu = p.topo->index("cpu0");
  d.gpu = p.topo->index("gpu0");
  d.device_of.assign(p.graph->nodes.size(), d.gpu);
  d.sliced.push_back({Expert{{p.graph->find("fc1")}, {}, p.graph->find("fc2")}, s});
  const Plan plan = scheduler::offload::build_cpu_gpu_plan(p, "test", d);
  const Outcome r = run(p, plan);
  Ends e;
  for (size_t t = 0; t < r.low.graph.tasks.size(); ++t) {
    const engine::Task& task = r.low.graph.tasks[t];
    if (task.kind != engine::TaskKind::Compute) continue;
    const bool on_cpu = r.low.graph.queues[task.queue] == "cpu0.compute";
    double& end = on_cpu ? e.cpu : e.gpu;
    end = std::max(end, to_seconds(r.trace.tasks[t].end));
  }
  return e;
}

// Eq. 4 and the closed form of Eq. 5 for n_l = 2 equal GEMMs.
Ends closed_form(double T, Slicing s) {
  const double n = T * M * H, n_w = M * H * 2;
  const hw::Topology t = preset("scheinfer-a");
  const Path pcie = path(t, "host", "gpu0");
  auto sgn = [](double r) { return r > 0 ? 1.0 : 0.0; };
  const double t_l = (2 * sgn(s.cg) + sgn(s.gg)) * kLaunch;
  const double t_c2g = sgn(s.cg) * (pcie.latency + s.cg * n_w / pcie.bw);
  const double t_g = kAlphaG * (sgn(s.cg) + sgn(s.gg)) + (s.cg + s.gg) * n * kBetaG;
  const double t_c = sgn(s.cc) * (kAlphaC + s.cc * n * kBetaC);
  Ends e;
  if (s.cg + s.gg > 0) e.gpu = t_l + t_c2g + t_g + (2 - 1) * std::max({t_l, t_c2g, t_g});
  e.cpu = 2 * t_c;
  return e;
}

void expect_eq5(double T, Slicing s, const char* which) {
  SCOPED_TRACE(which);
  const Ends sim = simulate(T, s), eq5 = closed_form(T, s);
  EXPECT_NEAR(sim.gpu, eq5.gpu, 1e-9 * eq5.gpu + 1e-11);
  EXPECT_NEAR(sim.cpu, eq5.cpu, 1e-9 * eq5.cpu + 1e-11);
}

TEST(Eq5Lowering, CopyBoundBlockEndsAtCase1) {
  // T = 1: CG's 27 MB copy (706 us) outlasts the launches (132 us) and the GPU's GEMMs (72 us).
  expect_eq5(1, {0.5, 0.3, 0.2, 0}, "Case 1: t_C2G > t_L, t_G");
}

TEST(Eq5Lowering, LaunchBoundBlockEndsAtCase3) {
  // T = 1 and 1% of the weights copied (26 us): three launches per GEMM (132 us) dominate.
  expect_eq5(1, {0.89, 0.01, 0.1, 0}, "Case 3: t_L > t_C2G, t_G");
}

TEST(Eq5Lowering, GpuBoundBlockEndsAtCase2) {
  // A 1024-token prompt: the GPU's 60% of 46 G multiply-adds (89 ms) outlast the copy and launches.
  expect_eq5(1024, {0.4, 0.1, 0.5, 0}, "Case 2: t_G > t_C2G, t_L");
}

TEST(Eq5Lowering, GgOnlyAndCpuOnlyBlocks) {
  // No CG: no copy, one launch per GEMM; everything on the CPU: no GPU stream at all.
  expect_eq5(1, {0.6, 0, 0.4, 0}, "r_CG = 0");
  expect_eq5(1, {0, 0.5, 0.5, 0}, "r_CC = 0");
}

TEST(Eq5Lowering, BadSlicingIsAnError) {
  for (Slicing s : {Slicing{0.5, 0.5, 0.5, 0}, Slicing{-0.1, 0.6, 0.5, 0}, Slicing{0.5, 0.5, 0, 1.5}})
    EXPECT_THROW(simulate(1, s), InputError);
}

}  // namespace
