// HEFT's own example through the `placesim` binary (scenarios/heuristics/topcuoglu.yaml): HEFT
// predicts the paper's schedule length, 80 (worked step by step in tests/scheduler/placers/heft_test.cpp),
// and its plan simulates to exactly that. The engine gives each edge its own fixed time: n1 on p3
// feeds n2 (18) on p1 and n4 (9) and n6 (14) on p2 through one delivery per device, so a
// delivery timed by the longest of its edges would start n4 at 23 instead of 18 and end at 85.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(Topcuoglu, HeftsPlanSimulatesToItsPredictionOf80) {
  const std::string dir = temp_dir("topcuoglu");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/heuristics/topcuoglu.yaml --json -o " +
                         dir + "/t.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& run : j["runs"]) {
    if (run["placer"] != "heft") continue;
    found = true;
    EXPECT_EQ(run["status"], "ok") << run.dump();
    EXPECT_DOUBLE_EQ(run["predicted_s"].get<double>(), 80) << run.dump();
    EXPECT_DOUBLE_EQ(run["makespan_s"].get<double>(), 80) << run.dump();
  }
  EXPECT_TRUE(found) << r.out;
}
