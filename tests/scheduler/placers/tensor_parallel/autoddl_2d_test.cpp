// autoddl-2d (scheduler/placers/tensor_parallel/autoddl_2d.cpp): the k x (G/k) grid's splits and
// collectives worked by hand, the engine against its prediction at both fidelities, k chosen as
// the best divisor, and bad k values; and the sliced problem the tensor-parallel plans come with.
#include <gtest/gtest.h>

#include "scheduler/placers/tensor_parallel/decoder_roles.hpp"
#include "scheduler/placers/tensor_parallel/grid_design.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"
#include "scheduler/plan/slices.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace {

using namespace placers_test;

scheduler::Problem gpt2_large(models::Phase phase) {
  return problem(gpt2_large_2_layers(phase), hw::load_topology(Yaml(YAML::Node("dgx-a100"), "test")));
}

// G = 8 GPUs in k = 2 groups of 4 (gpu0-3, gpu4-7). A linear layer [K, N] is split into 8
// blocks: columns 1/2 per group, rows 1/4 per member. Before it, each row position r gathers
// from gpu r and gpu 4+r the input rows they share: k/G = 1/4 of the input a N K; after it,
// each group reduce-scatters its partial output, half of a N N_out.
TEST(AutoDdl2d, GridSplitsAndCollectivesByHand) {
  const scheduler::Problem p = gpt2_large(models::Phase::Prefill);
  const scheduler::PlacerResult r = run_placer("{name: autoddl-2d, k: 2}", p);
  ASSERT_TRUE(r.plan);
  EXPECT_EQ(r.message, "k = 2 groups of 4 GPUs");
  EXPECT_EQ(r.choices, nlohmann::ordered_json({{"k", 2}}));
  const models::Graph& g = *p.graph;
  const scheduler::PlanSplit& up = r.plan->splits.at(g.find("l0.up"));
  EXPECT_EQ(up.axis, models::Axis::Cols);
  EXPECT_EQ(up.inner, models::Axis::Rows);
  ASSERT_EQ(up.slices.size(), 8u);
  for (const scheduler::PlanSlice& s : up.slices) {
    EXPECT_DOUBLE_EQ(s.share, 0.5);
    EXPECT_DOUBLE_EQ(s.inner_share, 0.25);
  }
  const double a = 2, N = 8 * 128, h = 1280, f = 5120;
  int gathers = 0, scatters = 0;
  for (const scheduler::PlanCollective& c : r.plan->collectives) {
    if (c.name.rfind("l0.up.", 0) != 0) continue;
    if (c.op == engine::CollectiveOp::AllGather) {
      ++gathers;
      ASSERT_EQ(c.group.size(), 2u);
      EXPECT_EQ(c.group[1] - c.group[0], p.topo->index("gpu4") - p.topo->index("gpu0"));
      EXPECT_DOUBLE_EQ(c.bytes, a * N * h / 4);
    } else {
      ++scatters;
      EXPECT_EQ(c.op, engine::CollectiveOp::ReduceScatter);
      EXPECT_EQ(c.group.size(), 4u);
      EXPECT_DOUBLE_EQ(c.bytes, a * N * f / 2);
    }
  }
  EXPECT_EQ(gathers, 4);
  EXPECT_EQ(scatters, 2);
}

// Nothing else contends with the grid's collectives on dgx-a100 (each GPU has its own NVSwitch
// ports), so the engine gives the prediction at both fidelities, to its picosecond rounding.
TEST(AutoDdl2d, EngineAgreesWithItsPredictionAtBothFidelities) {
  for (models::Phase phase : {models::Phase::Prefill, models::Phase::Decode}) {
    scheduler::Problem p = gpt2_large(phase);
    for (int k : {1, 2, 4, 8}) {
      const scheduler::PlacerResult r = run_placer("{name: autoddl-2d, k: " + std::to_string(k) + "}", p);
      p.collectives = engine::Fidelity::Flow;
      const Simulated flow = simulate(p, *r.plan);
      p.collectives = engine::Fidelity::Analytic;
      const double analytic = simulate(p, *r.plan).makespan;
      EXPECT_NEAR(flow.makespan, *r.predicted_s, 1e-12 * static_cast<double>(flow.lowered.graph.tasks.size())) << k;
      EXPECT_NEAR(analytic, flow.makespan, 1e-6 * flow.makespan) << k;
    }
  }
}

TEST(AutoDdl2d, AutoPicksTheDivisorWithTheSmallestEstimate) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  const scheduler::PlacerResult best = run_placer("autoddl-2d", p);
  for (int k : {1, 2, 4, 8})
    EXPECT_LE(*best.predicted_s, *run_placer("{name: autoddl-2d, k: " + std::to_string(k) + "}", p).predicted_s) << k;
}

TEST(AutoDdl2d, KMustDivideTheGpus) {
  const scheduler::Problem p = gpt2_large(models::Phase::Decode);
  for (const char* bad : {"{name: autoddl-2d, k: 3}", "{name: autoddl-2d, k: 16}"}) {
    try {
      run_placer(bad, p);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("does not divide the 8 GPUs"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(run_placer("{name: autoddl-2d, k: 0}", p), InputError);
}

}  // namespace

// build_tp_plan hands on the sliced problem it laid the plan out on, which bsp_seconds reads in
// place of slicing the built plan again (tp_plan.hpp): the two must be one graph, and give one
// estimate, on every grid of 8 GPUs, symmetric and by capability, weights resident and on host.
TEST(TpPlan, TheSlicedProblemHandedOnIsTheBuiltPlansOwnSlicing) {
  for (const scheduler::WeightsMode weights : {scheduler::WeightsMode::Resident, scheduler::WeightsMode::Host}) {
    scheduler::Problem p = gpt2_large(models::Phase::Decode);
    p.weights = weights;
    const std::vector<scheduler::tp::DecoderOp> ops = scheduler::tp::decoder_roles(*p.graph, "autoddl-2d");
    const std::vector<int> gpus = p.topo->gpus();
    for (int k : {1, 2, 4, 8}) {
      for (bool capability : {false, true}) {
        scheduler::tp::Grid grid;
        grid.capability = capability;
        for (int t = 0; t < k; ++t) {
          grid.groups.emplace_back(gpus.begin() + t * (8 / k), gpus.begin() + (t + 1) * (8 / k));
          grid.weight.emplace_back(8 / k, 1.0);
        }
        const scheduler::tp::TpPlan built =
            scheduler::tp::build_tp_plan(p, "autoddl-2d", scheduler::tp::grid_design(*p.graph, ops, grid));
        const scheduler::tp::TpPlan again{built.plan, scheduler::sliced_problem(p, built.plan)};
        const models::Graph &a = *built.sliced.graph, &b = *again.sliced.graph;
        const std::string what = "k = " + std::to_string(k) + (capability ? ", by capability" : "");
        ASSERT_EQ(a.nodes.size(), b.nodes.size()) << what;
        for (size_t n = 0; n < a.nodes.size(); ++n) {
          EXPECT_EQ(a.nodes[n].name, b.nodes[n].name) << what;
          EXPECT_EQ(a.nodes[n].flops, b.nodes[n].flops) << what << ": " << a.nodes[n].name;
          EXPECT_EQ(a.nodes[n].bytes, b.nodes[n].bytes) << what << ": " << a.nodes[n].name;
          EXPECT_EQ(a.nodes[n].param_bytes, b.nodes[n].param_bytes) << what << ": " << a.nodes[n].name;
        }
        ASSERT_EQ(a.edges.size(), b.edges.size()) << what;
        for (size_t e = 0; e < a.edges.size(); ++e) {
          EXPECT_EQ(a.edges[e].src, b.edges[e].src) << what;
          EXPECT_EQ(a.edges[e].dst, b.edges[e].dst) << what;
          EXPECT_EQ(a.edges[e].bytes, b.edges[e].bytes) << what;
        }
        EXPECT_EQ(scheduler::tp::bsp_seconds(p, built), scheduler::tp::bsp_seconds(p, again)) << "k = " << k;
      }
    }
  }
}
