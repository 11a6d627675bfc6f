// The README's quickstart runs in the suite: every placer of scenarios/quickstart.yaml gives a
// result at every point, the table is printed, and no simulated makespan beats the bound.
#include <cmath>
#include <map>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(Quickstart, RunsAndPrintsATable) {
  const std::string dir = temp_dir("quickstart");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml -o " + dir + "/q.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("geomean speed-up"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("single-device"), std::string::npos);
  // docs/results.md shows this run's first table as it prints.
  const std::string doc = read_all(std::string(PLACESIM_SOURCE_DIR) + "/docs/results.md");
  const size_t from = doc.find("```text\n", doc.find("scenarios/quickstart.yaml` prints, first:"));
  ASSERT_NE(from, std::string::npos);
  const std::string shown = doc.substr(from + 8, doc.find("```", from + 8) - from - 8);
  EXPECT_NE(r.out.find(shown), std::string::npos) << "docs/results.md's table is not what the quickstart prints:\n"
                                                   << shown << "\nprinted:\n" << r.out;
  // The MILP solver's own log (CBC's "Cbc0026I ...", Clp's "Clp0006I ...") stays out of the terminal.
  for (const char* solver : {"Cbc0", "Clp0", "Coin0"}) {
    EXPECT_EQ(r.out.find(solver), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(solver), std::string::npos) << r.err;
  }
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
    // A MILP on a node budget ends "limit" with its best plan.
    ASSERT_TRUE(run["status"] == "ok" || run["status"] == "limit") << run.dump();
    EXPECT_GE(run["makespan_s"].get<double>(), bound[run["point"].dump()]) << run.dump();
  }
}

// With weights in host memory every parameter crosses a PCIe bus before its first use; every
// placer books those copies in its own prediction (the list schedulers in param_copies.hpp, the
// tensor-parallel ones in their bulk-synchronous model), so each predicts its simulated makespan
// within 10% at every point; and the bound is within 3x of the best plan there.
TEST(Quickstart, EveryPlacerPredictsWithin10PercentAndTheBoundIsWithin3x) {
  const std::string dir = temp_dir("quickstart-pred");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml --json -o " + dir + "/q.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, double> best, bound;
  int predicted = 0;
  for (const auto& run : j["runs"]) {
    const std::string point = run["point"].dump();
    if (run["placer"] == "critical-path") {
      bound[point] = run["predicted_s"].get<double>();
      continue;
    }
    const double sim = run["makespan_s"].get<double>();
    best[point] = best.count(point) ? std::min(best[point], sim) : sim;
    // A MILP that kept its warm start predicts nothing of its own (its message says what its
    // model made of its own plan).
    if (run["predicted_s"].is_null()) continue;
    EXPECT_LE(std::abs(run["predicted_s"].get<double>() - sim) / sim, 0.10) << run.dump();
    ++predicted;
  }
  EXPECT_GE(predicted, 8);  // four placers at two points, and the MILP where it returns its own plan
  ASSERT_EQ(bound.size(), 2u);
  for (auto& [point, b] : bound) EXPECT_LE(best.at(point), 3 * b) << point;
}
