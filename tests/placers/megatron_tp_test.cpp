// megatron-tp (scheduler/placers/tensor_parallel/megatron_tp.cpp): its plan's structure, its
// all-reduces at the ring's closed form, its prediction against the engine at both collective
// fidelities, each GPU's share of the weights and KV cache worked from the architecture, and
// the errors and infeasible runs it must give.
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "hw/route_cost.hpp"
#include "scheduler/lower_collectives.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"
#include "scheduler/plan_slices.hpp"
#include "scheduler/score_plan.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;

scheduler::Problem gpt2_large(models::Phase phase) {
  return problem(gpt2_large_2_layers(phase), hw::load_topology(Yaml(YAML::Node("dgx-a100"), "test")));
}

std::string on_gpus(int t) {
  std::string ids;
  for (int i = 0; i < t; ++i) ids += (i ? ", gpu" : "gpu") + std::to_string(i);
  return "{name: megatron-tp, devices: [" + ids + "]}";
}

// Two all-reduces per layer, each of the whole activation a N h (fp16: a = 2, N = 8 x 128
// tokens, h = 1280), after the row-split linear and before the residual add; on one node of
// dgx-a100 each is a ring: 2 (t-1) (L + S / (t B)) over the GPUs' NVSwitch routes.
TEST(MegatronTp, AllReducesAfterEachRowSplitLinearAtTheRingClosedForm) {
  const scheduler::Problem p = gpt2_large(models::Phase::Prefill);
  for (int t : {2, 4, 8}) {
    const scheduler::PlacerResult r = run_placer(on_gpus(t), p);
    ASSERT_TRUE(r.plan);
    const scheduler::Plan& plan = *r.plan;
    ASSERT_EQ(plan.collectives.size(), 4u);
    const double S = 2.0 * 8 * 128 * 1280;
    const hw::RouteCost hop = hw::route_cost(*p.topo, p.topo->index("gpu0"), p.topo->index("gpu1"));
    const double ring = 2 * (t - 1) * (hop.latency_s + S / (t * hop.bandwidth));
    for (const scheduler::PlanCollective& c : plan.collectives) {
      EXPECT_EQ(c.op, engine::CollectiveOp::AllReduce);
      EXPECT_EQ(c.algorithm, "ring");
      EXPECT_DOUBLE_EQ(c.bytes, S);
      EXPECT_EQ(c.group.size(), static_cast<size_t>(t));
      const scheduler::RouteNetwork net(*p.topo, {});
      EXPECT_NEAR(engine::analytic_seconds(scheduler::collective_spec(c, *p.topo, engine::Fidelity::Analytic), net), ring,
                  1e-12 * ring);
    }
    // The splits: qkv by columns, attention by heads, out by rows, the norm on every GPU.
    const models::Graph& g = *p.graph;
    EXPECT_EQ(plan.splits.at(g.find("l0.qkv")).axis, models::Axis::Cols);
    EXPECT_EQ(plan.splits.at(g.find("l0.attn")).axis, models::Axis::Heads);
    EXPECT_EQ(plan.splits.at(g.find("l1.down")).axis, models::Axis::Rows);
    EXPECT_EQ(plan.splits.at(g.find("l1.ln2")).axis, models::Axis::Replicas);
    EXPECT_EQ(plan.splits.at(g.find("lm_head")).axis, models::Axis::Replicas);  // tied to the embedding
  }
}

// Nothing contends in a Megatron plan but each collective with itself, so the engine gives its
// bulk-synchronous estimate (ops in sequence at their slowest slice, each all-reduce at its
// closed form) at both fidelities, to the picosecond rounding of its events.
TEST(MegatronTp, EngineAgreesWithItsPredictionAtBothFidelities) {
  for (models::Phase phase : {models::Phase::Prefill, models::Phase::Decode}) {
    scheduler::Problem p = gpt2_large(phase);
    for (int t : {1, 2, 8}) {
      const scheduler::PlacerResult r = run_placer(on_gpus(t), p);
      ASSERT_TRUE(r.plan && r.predicted_s);
      p.collectives = engine::Fidelity::Flow;
      const Simulated sim = simulate(p, *r.plan);
      const double flow = sim.makespan;
      p.collectives = engine::Fidelity::Analytic;
      const double analytic = simulate(p, *r.plan).makespan;
      // Every task's end is rounded up to the next picosecond.
      EXPECT_NEAR(flow, *r.predicted_s, 1e-12 * static_cast<double>(sim.lowered.graph.tasks.size())) << t;
      EXPECT_NEAR(analytic, flow, 1e-6 * flow) << t;
    }
  }
}

// Each GPU holds 1/t of every linear layer's weight and bias, the whole norms and embedding
// tables (replicated), and 1/t of the KV cache. gpt2-large: h = 1280, ffn f = 5120, vocab
// V = 50257, 1024 positions, biases, tied head; fp16 (2 bytes). Per layer the linears hold
// qkv h x 3h + 3h, out h x h + h, up h x f + f, down f x h + h; the two norms 2h each; the final
// norm 2h; the tables V h + 1024 h. Decode with batch B = 8 over S = 128 positions: each
// layer's cache is 2 B S h elements (K and V, no GQA).
TEST(MegatronTp, EachGpuHoldsItsShareOfWeightsAndCache) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  const double h = 1280, f = 5120, V = 50257, layers = 2, e = 2;
  const double linears = layers * (h * 3 * h + 3 * h + h * h + h + h * f + f + f * h + h);
  const double whole = layers * 2 * (2 * h) + 2 * h + V * h + 1024 * h;
  const double cache = layers * 2 * 8 * 128 * h;
  for (int t : {2, 4}) {
    const scheduler::PlacerResult r = run_placer(on_gpus(t), p);
    const scheduler::Lowered low = scheduler::lower(p, *r.plan);
    int pool = 0;
    while (p.topo->devices[low.pool_device.at(pool)].id != "gpu1") ++pool;
    double weights = 0, state = 0;
    for (const engine::Buffer& b : low.graph.buffers) {
      if (b.pool != pool) continue;
      if (b.name.find("@gpu1") != std::string::npos) weights += b.bytes;
      if (b.name.size() > 6 && b.name.compare(b.name.size() - 6, 6, ".state") == 0) state += b.bytes;
    }
    EXPECT_NEAR(weights, e * (linears / t + whole), 1e-9 * weights) << t;
    EXPECT_NEAR(state, e * cache / t, 1e-9 * state) << t;
  }
}

// GPT-3 175B (about 350 GB of fp16 weights) on one A100 of 80 GiB: a result, not an error.
TEST(MegatronTp, Gpt175bOnOneA100IsInfeasibleNamingTheGpu) {
  models::TransformerSpec spec;
  spec.arch = "gpt3-175b";
  spec.batch = 1;
  spec.seq = 128;
  spec.dtype = models::DType::FP16;
  const scheduler::Problem p =
      problem(models::generate_transformer(spec), hw::load_topology(Yaml(YAML::Node("dgx-a100"), "test")));
  const scheduler::PlacerResult r = run_placer("{name: megatron-tp, devices: [gpu0]}", p);
  const scheduler::PlanScore s = scheduler::score_plan(p, *r.plan);
  EXPECT_FALSE(s.fits());
  EXPECT_NE(s.memory_message().find("on gpu0 exceeds"), std::string::npos) << s.memory_message();
}

TEST(MegatronTp, RefusesGraphsThatAreNotTransformerDecoders) {
  const scheduler::Problem p = random_dag_on("dgx-a100", 1, 4, 3);
  try {
    run_placer("megatron-tp", p);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("megatron-tp places transformer decoder graphs"), std::string::npos) << e.what();
  }
}

}  // namespace
