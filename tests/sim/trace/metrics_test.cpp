// Metrics of the hand-made run in sample_run.hpp, with expectations worked out by hand.
#include "sim/trace/metrics.hpp"

#include <gtest/gtest.h>

#include "tests/sim/trace/sample_run.hpp"

namespace placesim::trace {
namespace {

using testdata::kUs;
using testdata::sample_graph;
using testdata::sample_trace;

TEST(Metrics, FromTheTraceRecords) {
  const Metrics m = compute_metrics(sample_graph(), sample_trace());
  EXPECT_DOUBLE_EQ(m.makespan_s, 171e-6);
  EXPECT_EQ(m.tasks, 3);

  ASSERT_EQ(m.resources.size(), 2u);
  EXPECT_EQ(m.resources[0].name, "gpu0");
  EXPECT_DOUBLE_EQ(m.resources[0].consumed, 70e-6);
  EXPECT_DOUBLE_EQ(m.resources[0].busy_s, 70e-6);
  EXPECT_DOUBLE_EQ(m.resources[0].utilisation, 70.0 / 171.0);
  EXPECT_EQ(m.resources[1].name, "pcie0.down");
  EXPECT_DOUBLE_EQ(m.resources[1].consumed, 1e6);
  EXPECT_DOUBLE_EQ(m.resources[1].busy_s, 100e-6);
  EXPECT_DOUBLE_EQ(m.resources[1].utilisation, 100.0 / 171.0);

  ASSERT_EQ(m.queues.size(), 2u);
  EXPECT_EQ(m.queues[0].name, "gpu0.compute");
  EXPECT_EQ(m.queues[0].tasks, 2);
  EXPECT_DOUBLE_EQ(m.queues[0].busy_s, 70e-6);
  EXPECT_DOUBLE_EQ(m.queues[0].utilisation, 70.0 / 171.0);
  EXPECT_EQ(m.queues[1].name, "gpu0.h2d");
  EXPECT_EQ(m.queues[1].tasks, 1);
  EXPECT_DOUBLE_EQ(m.queues[1].busy_s, 101e-6);  // the 1 us latency phase counts

  ASSERT_EQ(m.pools.size(), 1u);
  EXPECT_EQ(m.pools[0].name, "gpu0.mem");
  EXPECT_DOUBLE_EQ(m.pools[0].capacity, 16e9);
  EXPECT_DOUBLE_EQ(m.pools[0].peak_bytes, 1.5e6);
}

TEST(Metrics, DerivedWhenTheExecutorRecordedNoConsumption) {
  engine::Trace t = sample_trace();
  t.consumed.clear();
  t.busy_s.clear();
  t.peak_memory.clear();
  const Metrics m = compute_metrics(sample_graph(), t);
  EXPECT_DOUBLE_EQ(m.resources[0].consumed, 50e-6 + 20e-6);
  EXPECT_DOUBLE_EQ(m.resources[0].busy_s, 70e-6);
  EXPECT_DOUBLE_EQ(m.resources[1].consumed, 1e6);
  EXPECT_DOUBLE_EQ(m.resources[1].busy_s, 1e6 / 10e9);
  EXPECT_DOUBLE_EQ(m.pools[0].peak_bytes, 1.5e6);
}

TEST(Metrics, ZeroMakespanGivesZeroUtilisation) {
  engine::Trace t = sample_trace();
  t.makespan = 0;
  const Metrics m = compute_metrics(sample_graph(), t);
  EXPECT_EQ(m.resources[0].utilisation, 0.0);
  EXPECT_EQ(m.queues[0].utilisation, 0.0);
}

TEST(QueueBusy, IsTheUnionOfTaskIntervals) {
  const engine::TaskGraph g = sample_graph();
  engine::Trace t = sample_trace();
  EXPECT_EQ(queue_busy_ps(g, t), (std::vector<TimePs>{70 * kUs, 101 * kUs}));

  t.tasks[2] = {140 * kUs, 140 * kUs, 171 * kUs};  // overlaps matmul (a measured trace may)
  EXPECT_EQ(queue_busy_ps(g, t)[0], 70 * kUs);

  t.tasks[2] = {160 * kUs, 160 * kUs, 171 * kUs};  // a 9 us gap after matmul
  EXPECT_EQ(queue_busy_ps(g, t)[0], 61 * kUs);

  t.tasks[2] = {-1, -1, -1};  // never started
  EXPECT_EQ(queue_busy_ps(g, t)[0], 50 * kUs);
  EXPECT_EQ(compute_metrics(g, t).queues[0].tasks, 1);
}

TEST(MetricsJson, HasAStableKeyOrder) {
  engine::TaskGraph g = sample_graph();
  g.pools[0].capacity = engine::kUnbounded;
  const nlohmann::ordered_json j = to_json(compute_metrics(g, sample_trace()));

  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"makespan_s", "tasks", "resources", "queues", "pools"}));
  EXPECT_EQ(j["resources"][1].dump(),
            R"({"name":"pcie0.down","consumed":1000000.0,"busy_s":0.0001,"utilisation":)" +
                nlohmann::json(100e-6 / to_seconds(171 * kUs)).dump() + "}");
  EXPECT_EQ(j["queues"][0]["name"], "gpu0.compute");
  EXPECT_TRUE(j["pools"][0]["capacity"].is_null());
  EXPECT_EQ(j["pools"][0]["peak_bytes"], 1.5e6);
  EXPECT_EQ(j.dump(), to_json(compute_metrics(g, sample_trace())).dump());
}

}  // namespace
}  // namespace placesim::trace
