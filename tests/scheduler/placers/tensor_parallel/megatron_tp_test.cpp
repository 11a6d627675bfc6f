// megatron-tp (scheduler/placers/tensor_parallel/megatron_tp.cpp): its plan's structure, its
// all-reduces at the ring's closed form, alone and in data-parallel groups, its prediction
// against the engine at both collective fidelities, each GPU's share of the weights and KV cache
// worked from the architecture, and the errors and infeasible runs it must give.
#include <algorithm>
#include <map>
#include <gtest/gtest.h>

#include "models/generators/transformer.hpp"
#include "hw/route_cost.hpp"
#include "scheduler/lower/collectives.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"
#include "scheduler/plan/slices.hpp"
#include "scheduler/score_plan.hpp"
#include "tests/scheduler/placers/support.hpp"

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

// Data parallelism over the 8 GPUs of dgx-a100: tp = t makes r = 8/t groups of consecutive GPUs
// (group q: gpu q t .. q t + t - 1), each running the model on 8/r of the batch of 8. Each
// row-split linear is followed by one all-reduce per group, among its t GPUs only, of the
// group's share of the activation, S / r: a ring 2 (t-1) (L + S / (r t B)). Every op is split by
// batch between the groups (1/r each) and, within a group, as Megatron splits it.
TEST(MegatronTp, DataParallelGroupsAllReduceTheirBatchShareWithinTheGroup) {
  const scheduler::Problem p = gpt2_large(models::Phase::Prefill);
  const models::Graph& g = *p.graph;
  const double S = 2.0 * 8 * 128 * 1280;
  const hw::RouteCost hop = hw::route_cost(*p.topo, p.topo->index("gpu0"), p.topo->index("gpu1"));
  const scheduler::RouteNetwork net(*p.topo, {});
  for (int t : {2, 4}) {
    const int r = 8 / t;
    const scheduler::PlacerResult res = run_placer("{name: megatron-tp, tp: " + std::to_string(t) + "}", p);
    ASSERT_TRUE(res.plan);
    const scheduler::Plan& plan = *res.plan;
    ASSERT_EQ(plan.collectives.size(), 4u * r);  // 2 layers x 2 row-split linears x r groups
    const double ring = 2 * (t - 1) * (hop.latency_s + S / r / (t * hop.bandwidth));
    for (const scheduler::PlanCollective& c : plan.collectives) {
      EXPECT_EQ(c.op, engine::CollectiveOp::AllReduce);
      EXPECT_EQ(c.algorithm, "ring");
      EXPECT_DOUBLE_EQ(c.bytes, S / r);
      ASSERT_EQ(c.group.size(), static_cast<size_t>(t));
      const int q = (c.group[0] - p.topo->index("gpu0")) / t;  // dgx-a100's GPUs are consecutive indices
      for (int j = 0; j < t; ++j) EXPECT_EQ(p.topo->devices[c.group[j]].id, "gpu" + std::to_string(q * t + j));
      // It waits for its own group's slices and holds back only its own group's consumers.
      for (const std::vector<int>* ops : {&c.after, &c.before}) {
        EXPECT_EQ(ops->size(), static_cast<size_t>(t)) << c.name;
        for (int n : *ops)
          EXPECT_NE(std::find(c.group.begin(), c.group.end(), plan.device_of[n]), c.group.end()) << c.name;
      }
      EXPECT_NEAR(engine::analytic_seconds(scheduler::collective_spec(c, *p.topo, engine::Fidelity::Analytic), net), ring,
                  1e-12 * ring);
    }
    const scheduler::PlanSplit& qkv = plan.splits.at(g.find("l0.qkv"));
    EXPECT_EQ(qkv.axis, models::Axis::Batch);
    EXPECT_EQ(qkv.inner, models::Axis::Cols);
    ASSERT_EQ(qkv.slices.size(), 8u);
    for (const scheduler::PlanSlice& s : qkv.slices) {
      EXPECT_DOUBLE_EQ(s.share, 1.0 / r);
      EXPECT_DOUBLE_EQ(s.inner_share, 1.0 / t);
    }
    EXPECT_EQ(plan.splits.at(g.find("l0.attn")).inner, models::Axis::Heads);
    EXPECT_EQ(plan.splits.at(g.find("l1.down")).inner, models::Axis::Rows);
    const scheduler::PlanSplit& ln2 = plan.splits.at(g.find("l1.ln2"));
    EXPECT_EQ(ln2.axis, models::Axis::Batch);
    EXPECT_EQ(ln2.inner, models::Axis::Replicas);
    EXPECT_EQ(ln2.copies(), t);
    EXPECT_EQ(plan.splits.at(g.find("embed")).axis, models::Axis::Replicas);
    EXPECT_EQ(res.choices, nlohmann::ordered_json({{"tp", t}, {"replicas", r}}));
  }
}

// tp equal to the GPU count (or all, the default) is one group: today's 1D plan.
TEST(MegatronTp, TpOfTheWholeGroupIsOneGroup) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  const scheduler::PlacerResult whole = run_placer("megatron-tp", p);
  EXPECT_EQ(*run_placer("{name: megatron-tp, tp: 8}", p).plan, *whole.plan);
  EXPECT_EQ(*run_placer("{name: megatron-tp, tp: all}", p).plan, *whole.plan);
  EXPECT_EQ(whole.choices, nlohmann::ordered_json({{"tp", 8}, {"replicas", 1}}));
  EXPECT_EQ(whole.plan->splits.at(p.graph->find("l0.qkv")).inner, std::nullopt);
  EXPECT_EQ(whole.plan->collectives.front().name, "l0.out.allreduce");
}

// Nothing contends in a Megatron plan but each collective with itself, so the engine gives its
// bulk-synchronous estimate (ops in sequence at their slowest slice, each all-reduce at its
// closed form) at both fidelities, to the picosecond rounding of its events. Data-parallel
// groups use disjoint GPUs and links, so this holds for them too (tp 1: eight replicas, no
// collective).
TEST(MegatronTp, EngineAgreesWithItsPredictionAtBothFidelities) {
  std::vector<std::string> specs;
  for (int t : {1, 2, 8}) specs.push_back(on_gpus(t));
  for (int t : {1, 2, 4}) specs.push_back("{name: megatron-tp, tp: " + std::to_string(t) + "}");
  for (models::Phase phase : {models::Phase::Prefill, models::Phase::Decode}) {
    scheduler::Problem p = gpt2_large(phase);
    for (const std::string& t : specs) {
      const scheduler::PlacerResult r = run_placer(t, p);
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

// `all_reduce: flexreduce` (AsymGroup's baseline) on asymgroup-s2: 16 nodes, two of them with
// two GPUs. Every all-reduce is FlexReduce's; its prediction is the engine's (each all-reduce
// alone on the network, its time its own flows solved alone); and every node's NIC carries
// 2 (N-1)/N of each all-reduce's bytes each way, where NCCL's ring over the n = 18 GPUs (a
// node's two GPUs NVLink neighbours) carries 2 (n-1)/n through each.
TEST(MegatronTp, FlexReduceCrossesEveryNicOnceEachWay) {
  scheduler::Problem p = problem(gpt2_large_2_layers(models::Phase::Decode),
                                 hw::load_topology(Yaml(YAML::Node("asymgroup-s2"), "test")));
  const scheduler::PlacerResult r = run_placer("{name: megatron-tp, all_reduce: flexreduce}", p);
  ASSERT_TRUE(r.plan && r.predicted_s);
  ASSERT_EQ(r.plan->collectives.size(), 4u);
  double bytes = 0;
  for (const scheduler::PlanCollective& c : r.plan->collectives) {
    EXPECT_EQ(c.algorithm, "flexreduce");
    EXPECT_EQ(c.group.size(), 18u);
    bytes += c.bytes;
  }
  const Simulated sim = simulate(p, *r.plan);
  EXPECT_NEAR(sim.makespan, *r.predicted_s, 1e-12 * static_cast<double>(sim.lowered.graph.tasks.size()));
  // What crossed between nodes, per node and direction, over every all-reduce.
  const hw::Topology& t = *p.topo;
  std::map<std::string, double> out, in;
  for (const engine::Traffic& tr : sim.lowered.graph.traffic) {
    const std::string& a = t.devices[tr.src].node;
    const std::string& b = t.devices[tr.dst].node;
    if (a == b || std::string(tr.kind) != engine::to_string(engine::CollectiveOp::AllReduce)) continue;
    out[a] += tr.bytes;
    in[b] += tr.bytes;
  }
  ASSERT_EQ(out.size(), 16u);
  for (auto& [node, sent] : out) {
    EXPECT_NEAR(sent, 2 * bytes * 15 / 16, 1e-6 * bytes) << node;
    EXPECT_NEAR(in[node], 2 * bytes * 15 / 16, 1e-6 * bytes) << node;
  }
  for (auto [bad, what] : {std::pair{"{name: megatron-tp, all_reduce: ring}", "all_reduce must be nccl or flexreduce"},
                           std::pair{"{name: megatron-tp, all_reduce: [flexreduce]}", "expected a string"}}) {
    try {
      run_placer(bad, p);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
}

// Each GPU holds 1/t of every linear layer's weight and bias, the whole norms and embedding
// tables (replicated), and 1/(t r) of the KV cache (its group's 1/r of the batch, its 1/t of
// the heads). gpt2-large: h = 1280, ffn f = 5120, vocab V = 50257, 1024 positions, biases, tied
// head; fp16 (2 bytes). Per layer the linears hold qkv h x 3h + 3h, out h x h + h, up h x f + f,
// down f x h + h; the two norms 2h each; the final norm 2h; the tables V h + 1024 h. Decode with
// batch B = 8 over S = 128 positions: each layer's cache is 2 B S h elements (K and V, no GQA).
// Data parallelism copies the weights per group, so t alone sets a GPU's weights.
TEST(MegatronTp, EachGpuHoldsItsShareOfWeightsAndCache) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  const double h = 1280, f = 5120, V = 50257, layers = 2, e = 2;
  const double linears = layers * (h * 3 * h + 3 * h + h * h + h + h * f + f + f * h + h);
  const double whole = layers * 2 * (2 * h) + 2 * h + V * h + 1024 * h;
  const double cache = layers * 2 * 8 * 128 * h;
  struct Case {
    std::string spec;
    int t, r;
  };
  for (const Case& c : {Case{on_gpus(2), 2, 1}, Case{on_gpus(4), 4, 1}, Case{"{name: megatron-tp, tp: 2}", 2, 4},
                        Case{"{name: megatron-tp, tp: 4}", 4, 2}}) {
    const int t = c.t;
    const scheduler::PlacerResult r = run_placer(c.spec, p);
    const scheduler::Lowered low = scheduler::lower(p, *r.plan);
    int pool = 0;
    while (p.topo->devices[low.pool_device.at(pool)].id != "gpu1") ++pool;
    double weights = 0, state = 0;
    for (const engine::Buffer& b : low.graph.buffers) {
      if (b.pool != pool) continue;
      if (b.name.find("@gpu1") != std::string::npos) weights += b.bytes;
      if (b.name.size() > 6 && b.name.compare(b.name.size() - 6, 6, ".state") == 0) state += b.bytes;
    }
    EXPECT_NEAR(weights, e * (linears / t + whole), 1e-9 * weights) << c.spec;
    EXPECT_NEAR(state, e * cache / (t * c.r), 1e-9 * state) << c.spec;
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

// tp must divide the GPUs, be a whole number >= 1, and make replicas that divide the batch (8).
TEST(MegatronTp, BadTpIsAnErrorSayingWhy) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  for (auto [spec, what] :
       {std::pair{"{name: megatron-tp, tp: 3}", "tp = 3 does not divide the 8 GPUs"},
        std::pair{"{name: megatron-tp, tp: 16}", "tp = 16 does not divide the 8 GPUs"},
        std::pair{"{name: megatron-tp, tp: 0}", "tp must be a whole number >= 1 or all, got '0'"},
        std::pair{"{name: megatron-tp, tp: 2, devices: [gpu0, gpu1, gpu2, gpu3, gpu4, gpu5]}",
                  "tp = 2 makes 3 data-parallel replicas, which do not split the batch of 8 evenly"}}) {
    try {
      run_placer(spec, p);
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
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
