// The README's quickstart runs in the suite: every placer of scenarios/quickstart.yaml gives a
// result at every point, the table is printed, and no simulated makespan beats the bound.
#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_cli.hpp"

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(Quickstart, RunsAndPrintsATable) {
  const std::string dir = temp_dir("quickstart");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml -o " + dir + "/q.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("geomean speed-up"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("single-device"), std::string::npos);
}

TEST(Quickstart, EveryPlanIsAtLeastTheCriticalPathBound) {
  const std::string dir = temp_dir("quickstart-json");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml --json -o " + dir + "/q.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, double> bound;
  for (const auto& run : j["runs"])
    if (run["placer"] == "critical-path") bound[run["point"].dump()] = run["predicted_s"].get<double>();
  ASSERT_FALSE(bound.empty());
  for (const auto& run : j["runs"]) {
    // The bound is of plans that keep ops whole; megatron-tp splits them.
    if (run["placer"] == "critical-path" || run["placer"] == "megatron-tp") continue;
    // A MILP on a node budget ends "timeout" with its best plan.
    ASSERT_TRUE(run["status"] == "ok" || run["status"] == "timeout") << run.dump();
    EXPECT_GE(run["makespan_s"].get<double>(), bound[run["point"].dump()]) << run.dump();
  }
}

// With weights in host memory every parameter crosses a PCIe bus before its first use; the
// list-scheduling placer (HEFT) books those copies in their own schedules (param_copies.hpp), so what they
// predict stays within 10% of the simulation on average (results/heuristics/host-weights.md
// has the wider sweep).
TEST(Quickstart, ListSchedulersPredictTheirHostWeightRunsWithin10Percent) {
  const std::string dir = temp_dir("quickstart-pred");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml --json -o " + dir + "/q.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* placer : {"heft"}) {
    double sum = 0;
    int n = 0;
    for (const auto& run : j["runs"]) {
      if (run["placer"] != placer) continue;
      ASSERT_EQ(run["status"], "ok") << run.dump();
      const double sim = run["makespan_s"].get<double>(), pred = run["predicted_s"].get<double>();
      sum += std::abs(pred - sim) / sim;
      ++n;
    }
    ASSERT_EQ(n, 2) << placer;
    EXPECT_LT(sum / n, 0.10) << placer;
  }
}
