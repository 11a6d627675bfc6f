// The list-scheduling placers under `weights: host`: the parameter copies they book
// (scheduler/placers/param_copies.hpp), worked by hand on a shared bus, and their prediction
// error against the simulator on small transformers and LSTMs.
#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>

#include "models/generators/lstm.hpp"
#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"
#include "scheduler/placers/heft.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

// Two GPUs behind one PCIe switch: every host-to-GPU copy crosses host -> bus (10 GB/s) and then
// the GPU's own link (10 GB/s), 1 us per hop.
constexpr const char* kSharedBus =
    "devices:\n"
    "  - {id: host, type: host_memory, memory: 64GiB}\n"
    "  - {id: bus, type: switch}\n"
    "  - {id: g0, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 16GiB}\n"
    "  - {id: g1, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 16GiB}\n"
    "links:\n"
    "  - {a: host, b: bus, bw: 10GB/s, latency: 1us, kind: pcie}\n"
    "  - {a: bus, b: g0, bw: 10GB/s, latency: 1us, kind: pcie}\n"
    "  - {a: bus, b: g1, bw: 10GB/s, latency: 1us, kind: pcie}\n";

// The end of the task called `name` in a simulated plan, in seconds.
double end_of(const Simulated& s, const std::string& name) {
  if (const engine::TaskId t = s.lowered.graph.find_task(name); t >= 0) return to_seconds(s.trace.tasks[t].end);
  ADD_FAILURE() << "no task " << name;
  return -1;
}

TEST(HostWeights, HeftSerialisesTheCopiesOfASharedBus) {
  // a -> b (a fixed edge time of 10 ms), a reads wA and b reads wB, 1 GB each, from host memory.
  // Durations: a 50 ms on either GPU; b 50 ms on g0, 40 ms on g1.
  // A copy: route latency 2 us, then 1 GB at min(10, 10) GB/s = 0.1 s: t = 0.100002 s.
  // Ranks: b = 0.045, a = 0.05 + 0.01 + 0.045 = 0.105: a first.
  //   a: g0 and g1 alike, wA alone on the bus, ends 0.100002; EFT 0.150002; tie -> g0.
  //   b: wB queues behind wA on the bus whichever GPU gets it: ends 0.100002 + 0.100002 = 0.200004.
  //      g0: EST max(0.150002, 0.200004) = 0.200004, EFT 0.250004;
  //      g1: EST max(0.150002 + 0.01, 0.200004) = 0.200004, EFT 0.240004  -> g1.
  // Prediction 0.240004 s. Without the shared bus wB would end at 0.100002 and b at 0.200002;
  // with the copies ignored, at 0.05 + 0.01 + 0.04 = 0.1.
  const auto p = problem(models::parse_graph(Json::load_string(
                             R"({"nodes": [{"name": "wA", "param_bytes": 1e9}, {"name": "wB", "param_bytes": 1e9},
                                           {"name": "a", "durations": {"g0": 0.05, "g1": 0.05}},
                                           {"name": "b", "durations": {"g0": 0.05, "g1": 0.04}}],
                                 "edges": [{"src": "wA", "dst": "a"}, {"src": "wB", "dst": "b"},
                                           {"src": "a", "dst": "b", "time": 0.01}]})", "g.json")),
                         hw::load_topology_text(kSharedBus, "bus.yaml"), scheduler::WeightsMode::Host);
  const auto& g = *p.graph;
  const auto& topo = *p.topo;
  const auto s = scheduler::heft_schedule(p, topo.compute_devices(), true);
  EXPECT_EQ(s.device_of[g.find("a")], topo.index("g0"));
  EXPECT_EQ(s.device_of[g.find("b")], topo.index("g1"));
  ASSERT_EQ(s.copies.booked().size(), 2u);
  EXPECT_NEAR(s.copies.booked()[0].end, 0.100002, 1e-12);
  EXPECT_NEAR(s.copies.booked()[1].start, 0.100002, 1e-12);
  EXPECT_NEAR(s.copies.booked()[1].end, 0.200004, 1e-12);
  EXPECT_NEAR(s.makespan, 0.240004, 1e-12);

  // The plan runs both copies on the bus's one queue in that order, and the engine agrees.
  const auto r = run_placer("heft", p);
  ASSERT_TRUE(r.plan);
  EXPECT_NEAR(*r.predicted_s, 0.240004, 1e-12);
  bool found = false;
  for (const auto& q : r.plan->queues)
    if (q.name == "host-bus.copy") {
      found = true;
      ASSERT_EQ(q.items.size(), 2u);
      EXPECT_EQ(q.items[0].node, g.find("wA"));
      EXPECT_EQ(q.items[1].node, g.find("wB"));
    }
  EXPECT_TRUE(found);
  const Simulated sim = simulate(p, *r.plan);
  EXPECT_NEAR(end_of(sim, "wA@g0"), 0.100002, 1e-9);
  EXPECT_NEAR(end_of(sim, "wB@g1"), 0.200004, 1e-9);
  EXPECT_NEAR(sim.makespan, 0.240004, 1e-9);
}

TEST(HostWeights, CopyChannelsAndADeliveredParameterCostingNothing) {
  // sortinghat-v100: gpu0 and gpu1 behind bus0, gpu2 and gpu3 behind bus1, cpu0 on the memory
  // link. A copy to a GPU: 0.5 + 0.5 us of latency, min(12, 12 GB/s, host memory 76.8 GB/s) =
  // 12 GB/s; to cpu0: 0.1 us at 76.8 GB/s.
  // Graph: a and b both read w (1.2 GB), b also reads v (0.6 GB).
  const auto p = problem(models::parse_graph(Json::load_string(
                             R"({"nodes": [{"name": "w", "param_bytes": 1.2e9}, {"name": "v", "param_bytes": 6e8},
                                           {"name": "a", "flops": 1e9}, {"name": "b", "flops": 1e9}],
                                 "edges": [{"src": "w", "dst": "a"}, {"src": "w", "dst": "b"},
                                           {"src": "v", "dst": "b"}, {"src": "a", "dst": "b"}]})", "g.json")),
                         hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")), scheduler::WeightsMode::Host);
  const auto& g = *p.graph;
  const auto& topo = *p.topo;
  const int gpu0 = topo.index("gpu0"), gpu1 = topo.index("gpu1"), gpu2 = topo.index("gpu2"), cpu = topo.index("cpu0");
  scheduler::ParamCopies c(p);
  EXPECT_NEAR(c.copy_time(1.2e9, gpu0), 1e-6 + 0.1, 1e-15);
  EXPECT_NEAR(c.copy_time(7.68e9, cpu), 1e-7 + 0.1, 1e-15);
  // a on gpu0: w alone, 0.100001. b on gpu1 then: w and v queue behind it on bus0's channel:
  // 0.100001 + 0.100001 + (1e-6 + 0.05) = 0.250003. b on gpu2 (bus1's channel, empty): w then
  // v, 0.100001 + 0.050001 = 0.150002. b on gpu0: w is there already; v: 0.100001 + 0.050001.
  EXPECT_NEAR(c.arrival(g.find("a"), gpu0), 0.100001, 1e-12);
  c.book(g.find("a"), gpu0);
  EXPECT_NEAR(c.arrival(g.find("b"), gpu1), 0.250003, 1e-12);
  EXPECT_NEAR(c.arrival(g.find("b"), gpu2), 0.150002, 1e-12);
  EXPECT_NEAR(c.arrival(g.find("b"), gpu0), 0.150002, 1e-12);
  c.book(g.find("b"), gpu0);
  ASSERT_EQ(c.booked().size(), 2u);  // w once, then v
  EXPECT_EQ(c.booked()[1].param, g.find("v"));
  const auto copies = c.plan_copies();
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies[0].queue, "host-bus0.copy");
  EXPECT_EQ(copies[1].queue, "host-bus0.copy");
  // Under weights: resident nothing is copied.
  auto q = p;
  q.weights = scheduler::WeightsMode::Resident;
  EXPECT_EQ(scheduler::ParamCopies(q).arrival(g.find("b"), gpu1), 0);
}

// Small instances of the host-weights scenario (scenarios/heuristics/host-weights.yaml).
std::vector<std::pair<std::string, scheduler::Problem>> host_instances() {
  std::vector<std::pair<std::string, scheduler::Problem>> out;
  models::TransformerSpec prefill;
  prefill.layers = 2;
  prefill.seq = 32;
  models::TransformerSpec decode = prefill;
  decode.arch = "openllama-3b";
  decode.phase = models::Phase::Decode;
  models::LstmSpec lstm;
  lstm.layers = 2;
  lstm.seq = 6;
  for (const char* preset : {"sortinghat-v100", "pcie-4gpu-2bus", "scheinfer-c", "chrion-1080ti"}) {
    const hw::Topology topo = hw::load_topology(Yaml(YAML::Node(preset), "t"));
    out.emplace_back(fmt::format("gpt2-large prefill on {}", preset),
                     problem(models::generate_transformer(prefill), topo, scheduler::WeightsMode::Host));
    out.emplace_back(fmt::format("openllama-3b decode on {}", preset),
                     problem(models::generate_transformer(decode), topo, scheduler::WeightsMode::Host));
    out.emplace_back(fmt::format("lstm on {}", preset),
                     problem(models::generate_lstm(lstm), topo, scheduler::WeightsMode::Host));
  }
  return out;
}

TEST(HostWeights, ListSchedulersAndDeepPlanPredictWithinTenPercent) {
  // Mean |predicted - simulated| / simulated over the instances, per placer. With the copies left
  // out of the schedule, every list scheduler erred by 82-86% on average here.
  const auto instances = host_instances();
  for (const char* name : {"heft", "chrion", "m-etf", "m-sct", "m-topo", "getf", "deepplan"}) {
    double sum = 0;
    for (const auto& [what, p] : instances) {
      const auto r = run_placer(name, p);
      ASSERT_EQ(r.status, scheduler::RunStatus::Ok) << name << " on " << what << ": " << r.message;
      const double sim = simulate(p, *r.plan).makespan;
      sum += std::abs(*r.predicted_s - sim) / sim;
    }
    EXPECT_LT(sum / static_cast<double>(instances.size()), 0.10) << name;
  }
}

}  // namespace
