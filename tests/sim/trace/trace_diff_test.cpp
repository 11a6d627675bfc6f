// Predicted vs measured diff on the hand-made run of sample_run.hpp against a hand-made
// "measurement", with every error worked out by hand.
#include "sim/trace/trace_diff.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/sim/trace/sample_run.hpp"

namespace placesim::trace {
namespace {

using testdata::kUs;
using testdata::sample_graph;
using testdata::sample_trace;

// Measured: the copy takes 125 us (predicted 101), matmul 40 us (predicted 50), add 20 us (same).
engine::Trace measured_trace() {
  engine::Trace t;
  t.tasks = {{0, 0, 125 * kUs}, {125 * kUs, 125 * kUs, 165 * kUs}, {165 * kUs, 165 * kUs, 185 * kUs}};
  t.makespan = 185 * kUs;
  return t;
}

TEST(TraceDiff, PerTaskAndMakespanErrors) {
  const TraceDiff d = diff_traces(sample_graph(), sample_trace(), measured_trace());
  EXPECT_DOUBLE_EQ(d.predicted_s, 171e-6);
  EXPECT_DOUBLE_EQ(d.measured_s, 185e-6);
  EXPECT_DOUBLE_EQ(d.model_error, (171.0 - 185.0) / 185.0);

  ASSERT_EQ(d.tasks.size(), 3u);
  EXPECT_EQ(d.skipped, 0);
  EXPECT_EQ(d.tasks[0].task, 0);
  EXPECT_EQ(d.tasks[0].name, "copy w");
  EXPECT_DOUBLE_EQ(d.tasks[0].predicted_s, 101e-6);
  EXPECT_DOUBLE_EQ(d.tasks[0].measured_s, 125e-6);
  EXPECT_DOUBLE_EQ(d.tasks[0].model_error, -24.0 / 125.0);
  EXPECT_DOUBLE_EQ(d.tasks[1].model_error, 10.0 / 40.0);
  EXPECT_DOUBLE_EQ(d.tasks[2].model_error, 0.0);

  EXPECT_DOUBLE_EQ(d.mean_abs_error, (24.0 / 125.0 + 0.25 + 0.0) / 3.0);
  EXPECT_DOUBLE_EQ(d.p95_abs_error, 0.25);  // rank ceil(0.95 * 3) = 3 of {0, 0.192, 0.25}
}

TEST(TraceDiff, WorstTasksLargestFirst) {
  const TraceDiff d = diff_traces(sample_graph(), sample_trace(), measured_trace(), 2);
  ASSERT_EQ(d.worst.size(), 2u);
  EXPECT_EQ(d.worst[0].name, "matmul");
  EXPECT_EQ(d.worst[1].name, "copy w");
  EXPECT_EQ(diff_traces(sample_graph(), sample_trace(), measured_trace(), 10).worst.size(), 3u);
}

TEST(TraceDiff, P95IsNearestRank) {
  // 20 tasks, |error| = 0.01 * (k + 1): rank ceil(0.95 * 20) = 19 gives 0.19.
  engine::TaskGraph g;
  g.add_queue("q");
  engine::Trace predicted;
  engine::Trace measured;
  for (int k = 0; k < 20; ++k) {
    std::string name = "t";  // not "t" + to_string(k): GCC 12 warns falsely (-Wrestrict)
    name += std::to_string(k);
    g.add_task(name, {{}, {}, 0, 0, 0, engine::TaskKind::Compute}, {.op = k});
    predicted.tasks.push_back({0, 0, (100 - (k + 1)) * kUs});
    measured.tasks.push_back({0, 0, 100 * kUs});
  }
  const TraceDiff d = diff_traces(g, predicted, measured);
  EXPECT_DOUBLE_EQ(d.p95_abs_error, 0.19);
  EXPECT_NEAR(d.mean_abs_error, 0.105, 1e-12);
  ASSERT_EQ(d.worst.size(), kDefaultWorstTasks);
  EXPECT_EQ(d.worst[0].name, "t19");
}

TEST(TraceDiff, ZeroMeasuredDurationsAreSkipped) {
  engine::Trace m = measured_trace();
  m.tasks[2] = {165 * kUs, 165 * kUs, 165 * kUs};
  const TraceDiff d = diff_traces(sample_graph(), sample_trace(), m);
  EXPECT_EQ(d.skipped, 1);
  ASSERT_EQ(d.tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(d.mean_abs_error, (24.0 / 125.0 + 0.25) / 2.0);

  for (auto& r : m.tasks) r = {0, 0, 0};
  m.makespan = 0;
  const TraceDiff none = diff_traces(sample_graph(), sample_trace(), m);
  EXPECT_EQ(none.skipped, 3);
  EXPECT_TRUE(std::isnan(none.mean_abs_error));
  EXPECT_TRUE(std::isnan(none.p95_abs_error));
  EXPECT_TRUE(std::isnan(none.model_error));
  EXPECT_EQ(to_json(none)["task_error"]["mean"].dump(), "null");
}

TEST(TraceDiff, HostTasksAreNotCompared) {
  // The add as a host task (a runtime's dispatch): its own span says nothing of what it costs.
  engine::TaskGraph g = sample_graph();
  g.tasks[2].kind = engine::TaskKind::Launch;
  const TraceDiff d = diff_traces(g, sample_trace(), measured_trace());
  EXPECT_EQ(d.skipped, 1);
  ASSERT_EQ(d.tasks.size(), 2u);
  EXPECT_DOUBLE_EQ(d.mean_abs_error, (24.0 / 125.0 + 0.25) / 2.0);
}

TEST(TraceDiffJson, MatchesValidateOutput) {
  const nlohmann::ordered_json j = to_json(diff_traces(sample_graph(), sample_trace(), measured_trace(), 1));
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"predicted_s", "measured_s", "model_error", "task_error", "worst_tasks"}));
  EXPECT_EQ(j["task_error"]["compared"], 3);
  EXPECT_DOUBLE_EQ(j["task_error"]["p95"].get<double>(), 0.25);
  ASSERT_EQ(j["worst_tasks"].size(), 1u);
  EXPECT_EQ(j["worst_tasks"][0]["name"], "matmul");
  EXPECT_EQ(j["worst_tasks"][0]["task"], 1);
}

}  // namespace
}  // namespace placesim::trace
