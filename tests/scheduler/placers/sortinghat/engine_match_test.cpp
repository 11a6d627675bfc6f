// Done-when 2: where the MILP's model and the engine coincide, the predicted makespan is the
// simulated one. Two GPUs, each with its own PCIe link to host memory and an NVLink between
// them, no latency, no copy-engine limit; one submodel, adjust off, every GPU its own bus, the
// MILP's own plan (no warm start) proven optimal.
//
// Where they differ, and why these cases avoid it:
//   * a slot starts when ALL its inputs are in (Eq. 19-20), the engine starts each task when its
//     own are: for one plan the engine is never slower. At the optimum the MILP uses slots so
//     that the waits do not matter on every case here; a solve cut short can leave a slack
//     the engine does not have (this is why the optimum is required);
//   * DHA reads and copies into one GPU share its PCIe link in the engine; the model charges
//     neither (the paper's 3.4 adjusts P^DHA only by a constant) -> the host case runs dha: false;
//   * parallel transmission is lowered as the model means it (sortinghat_schedule.hpp): the copy
//     to GPU a on a's bus, forwarded whole to b over T_{a,b}; the host case counts the plans
//     that use it and needs some.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "graphs.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace sortinghat_test {
namespace {

using namespace placers_test;

const char* kTopo =
    "devices: [{id: host, type: host_memory, memory: 1e12},"
    " {id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e12},"
    " {id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e12}]\n"
    "links: [{a: host, b: g0, bw: 10GB/s}, {a: host, b: g1, bw: 10GB/s}, {a: g0, b: g1, bw: 20GB/s, kind: nvlink}]\n";

struct Outcome {
  double predicted = 0, simulated = 0;
  bool parallel_transmission = false;  // a parameter forwarded from another GPU's copy
  bool optimal = false;
  std::string message;
};

Outcome run(const GraphSpec& spec, scheduler::WeightsMode w, const std::string& placer, int q) {
  const auto p = problem(make_graph(spec), hw::load_topology_text(kTopo, "t.yaml"), w);
  const auto r = run_placer(
      fmt::format("{{name: {}, q: {}, ndom: 1000, warm: [], {}}}", placer, q,
                  placer == "milp-sortinghat" ? "adjust: false, bus_contention: false, dha: false" : ""),
      p);
  EXPECT_TRUE(r.plan && r.predicted_s) << r.message;
  if (!r.plan || !r.predicted_s) return {};
  bool pt = false;
  for (const auto& q : r.plan->queues)
    for (const auto& it : q.items)
      pt = pt || it.kind == scheduler::PlanItem::Kind::Forward;
  return {*r.predicted_s, simulate(p, *r.plan).makespan, pt, r.status == scheduler::RunStatus::Ok, r.message};
}

GraphSpec spec_for(std::uint64_t seed, double density) {
  GraphSpec s;
  s.ops = 3 + static_cast<int>(seed % 3);
  s.param_bytes = 2e6 * static_cast<double>(1 + seed % 4);  // 0.2 .. 0.8 ms over a 10 GB/s link
  s.output_bytes = 4e6;                                     // 0.2 ms over NVLink
  s.seconds = {3e-4, 1e-4, 6e-4, 2e-4};
  s.gpus = {"g0", "g1"};
  s.density = density;
  s.seed = seed;
  return s;
}

TEST(SortingHatEngine, ResidentWeightsPredictionIsSimulated) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Outcome o = run(spec_for(seed, seed % 2 ? 0.0 : 0.5), scheduler::WeightsMode::Resident, "milp-sortinghat", 4);
    ASSERT_TRUE(o.optimal) << o.message;
    EXPECT_NEAR(o.predicted, o.simulated, 1e-6 * o.simulated) << "seed " << seed << ": " << o.message;
  }
}

// Weights: host, dha: false, parallel transmission included: a parameter in a slot of GPU a
// read on GPU b is copied to a and forwarded over the NVLink, as T_{a,b} charges it. With DHA
// on, a DHA read and a copy into the same GPU share its link, which the model (like the paper,
// 3.4) does not charge, so this case runs without DHA.
TEST(SortingHatEngine, HostWeightsPredictionIsSimulated) {
  // Several assignments can share the optimum; on one whose slot waits for an input that one
  // of its tasks does not need (first point of the header), the engine is faster than the
  // model. So: never slower, and equal on most seeds.
  int compared = 0, equal = 0, with_pt = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    GraphSpec spec = spec_for(seed, seed % 2 ? 0.0 : 0.5);
    spec.ops = std::min(spec.ops, 4);
    const Outcome o = run(spec, scheduler::WeightsMode::Host, "milp-sortinghat", 2);
    ++compared;
    with_pt += o.parallel_transmission;
    ASSERT_TRUE(o.optimal) << o.message;
    EXPECT_LE(o.simulated, o.predicted * (1 + 1e-9)) << "seed " << seed << ": " << o.message;
    equal += std::abs(o.predicted - o.simulated) <= 1e-6 * o.simulated;
  }
  EXPECT_GE(with_pt, 1) << "no plan forwards a parameter: the case tests nothing of PT";
  EXPECT_GE(equal, compared / 2) << "of " << compared;
}

}  // namespace
}  // namespace sortinghat_test
