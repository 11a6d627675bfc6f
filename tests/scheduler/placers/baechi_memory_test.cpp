// Baechi's memory-constrained placers (m-topo, m-etf, m-sct) keep every device within its memory,
// or say the graph fits on none.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "support.hpp"

namespace {

using namespace placers_test;

TEST(BaechiMemory, PlansKeepWithinCapacity) {
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
