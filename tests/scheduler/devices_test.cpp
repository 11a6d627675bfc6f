// GPU copy engines and compute streams as the plan and lower() see them: a queue per engine and
// per stream, an engine a resource of copy_engine_bw when it is a bottleneck, kernels on several
// streams sharing their GPU by the execution contract. Figures come from the loaded preset; the
// engine and stream counts are set on a copy of it.
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

constexpr double S = 1.2e9;

const char* kTwoParams = R"({"nodes": [{"name": "w0", "param_bytes": 1.2e9}, {"name": "w1", "param_bytes": 1.2e9},
                                       {"name": "a", "durations": {"gpu0": 0}}, {"name": "b", "durations": {"gpu0": 0}}],
                             "edges": [{"src": "w0", "dst": "a"}, {"src": "w1", "dst": "b"}]})";

// Two copies of S bytes to gpu0.
//   one H2D engine (both on gpu0.h2d): one after the other, L + S/B, then 2L + 2S/B;
//   two engines (w1 moved to gpu0.h2d1): at once, sharing the route: both end at L + 2S/B.
TEST(Devices, CopiesSerializeOnOneEngineAndShareTheBusOnTwo) {
  hw::Topology t = preset("sortinghat-v100");
  device(t, "gpu0").h2d_engines = 1;
  const Path r = path(t, "host", "gpu0");
  const double B = r.bw, L = r.latency;
  const Problem one = problem(kTwoParams, t);
  const Plan plan = plan_for(one, {{"a", "gpu0"}, {"b", "gpu0"}});
  const Outcome serial = run(one, plan);
  EXPECT_NEAR(serial.end("w0@gpu0"), L + S / B, tol(1));
  EXPECT_NEAR(serial.end("w1@gpu0"), 2 * L + 2 * S / B, tol(1));

  Plan spread = plan;
  move_task(spread, one, "w1@gpu0", "gpu0.h2d1");
  EXPECT_THROW(run(one, spread), InputError);  // gpu0 has one H2D engine
  device(t, "gpu0").h2d_engines = 2;
  const Problem two = problem(kTwoParams, t);
  const Outcome shared = run(two, spread);
  EXPECT_NEAR(shared.end("w0@gpu0"), L + 2 * S / B, tol(1));
  EXPECT_NEAR(shared.end("w1@gpu0"), L + 2 * S / B, tol(1));
}

// An engine slower than the bus is the bottleneck: copy_engine_bw = B/4 makes one copy take
// L + 4S/B. Two such engines at once each get min(B/4, B/2) = B/4: both end at L + 4S/B.
TEST(Devices, CopyEngineRateBoundsItsCopies) {
  hw::Topology t = preset("sortinghat-v100");
  const Path r = path(t, "host", "gpu0");
  const double B = r.bw, L = r.latency;
  device(t, "gpu0").copy_engine_bw = B / 4;
  device(t, "gpu0").h2d_engines = 2;
  const Problem p = problem(kTwoParams, t);
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}});
  const Outcome serial = run(p, plan);
  EXPECT_NEAR(serial.end("w0@gpu0"), L + 4 * S / B, tol(1));
  move_task(plan, p, "w1@gpu0", "gpu0.h2d1");
  const Outcome both = run(p, plan);
  EXPECT_NEAR(both.end("w0@gpu0"), L + 4 * S / B, tol(1));
  EXPECT_NEAR(both.end("w1@gpu0"), L + 4 * S / B, tol(1));
}

// An activation a GPU sends to the CPU goes on its D2H engine queue and uses that engine:
// with copy_engine_bw = B/2 it takes L + 2S/B over the route gpu0 -> cpu0.
TEST(Devices, ActivationsToTheCpuUseTheD2hEngine) {
  const char* g = R"({"nodes": [{"name": "a", "durations": {"gpu0": 0}}, {"name": "b", "durations": {"cpu0": 0}}],
                      "edges": [{"src": "a", "dst": "b", "bytes": 1.2e9}]})";
  hw::Topology t = preset("sortinghat-v100");
  const Path r = path(t, "gpu0", "cpu0");
  device(t, "gpu0").copy_engine_bw = r.bw / 2;
  const Problem p = problem(g, t, scheduler::WeightsMode::Resident);
  const Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "cpu0"}});
  bool on_d2h = false;
  for (const auto& q : plan.queues) on_d2h = on_d2h || (q.name == "gpu0.d2h" && q.items.size() == 1);
  EXPECT_TRUE(on_d2h);
  EXPECT_NEAR(run(p, plan).makespan(), r.latency + 2 * S / r.bw, tol(1));
}

// Two kernels of d on two streams of one GPU share it: both end at 2d (docs/execution.md, worked example
// 4); with concurrent_kernels: false, at d and 2d. A third stream the GPU lacks is refused.
TEST(Devices, TwoStreamsShareTheirGpu) {
  const char* g = R"({"nodes": [{"name": "k1", "durations": {"gpu0": 0.5}}, {"name": "k2", "durations": {"gpu0": 0.5}}],
                      "edges": []})";
  const double d = 0.5;
  hw::Topology t = preset("sortinghat-v100");
  device(t, "gpu0").streams = 2;
  scheduler::BuildOptions streams;
  const Problem p = problem(g, t, scheduler::WeightsMode::Resident);
  streams.stream_of.assign(p.graph->nodes.size(), 0);
  streams.stream_of[p.graph->find("k2")] = 1;
  const Plan plan = plan_for(p, {{"k1", "gpu0"}, {"k2", "gpu0"}}, streams);
  ASSERT_EQ(plan.queues.size(), 2u);
  EXPECT_EQ(plan.queues[1].name, "gpu0.compute1");
  const Outcome shared = run(p, plan);
  EXPECT_NEAR(shared.end("k1"), 2 * d, tol(1));
  EXPECT_NEAR(shared.end("k2"), 2 * d, tol(1));

  device(t, "gpu0").concurrent_kernels = false;
  const Outcome one_at_a_time = run(problem(g, t, scheduler::WeightsMode::Resident), plan);
  EXPECT_NEAR(std::min(one_at_a_time.end("k1"), one_at_a_time.end("k2")), d, tol(1));
  EXPECT_NEAR(one_at_a_time.makespan(), 2 * d, tol(1));

  device(t, "gpu0").streams = 1;
  EXPECT_THROW(run(problem(g, t, scheduler::WeightsMode::Resident), plan), InputError);
}

}  // namespace
