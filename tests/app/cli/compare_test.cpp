// placesim compare on results files made by hand: speed-ups summed up (geometric mean, min,
// max), wins / ties / losses against the baseline, runs per status, memory, placement time, the
// per-axis pivot, bounds kept bounds under every metric, several files side by side, Markdown,
// and files that are not results files. Expected values are worked out from the chosen figures.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"
#include "results_files.hpp"

namespace placesim {
namespace {

using scheduler::RunStatus;
using testing::run_cli;
using testing::run_of;
using testing::set_of;
using Point = std::vector<std::pair<std::string, std::string>>;

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
const Point kP[4] = {{{"a", "1"}, {"b", "x"}}, {{"a", "1"}, {"b", "y"}}, {{"a", "2"}, {"b", "x"}}, {{"a", "2"}, {"b", "y"}}};

// Four points (a in 1, 2 by b in x, y). Makespans in ms:
//   base   4     9     2     8        peak 3 GiB (gpu0), placement 0.25 s each
//   fast   2     3     4     8.04     speed-ups 2, 3, 0.5, 8/8.04 (within 1%: a tie)
//   flaky  infeasible, error, 1 (2x), limit with 16 (0.5x)
//   cp     a bound of 1 ms at every point
explore::RunSet grid() {
  std::vector<explore::RunResult> runs;
  const double base[4] = {4e-3, 9e-3, 2e-3, 8e-3}, fast[4] = {2e-3, 3e-3, 4e-3, 8.04e-3};
  for (int i = 0; i < 4; ++i) {
    runs.push_back(run_of(i, kP[i], "base", base[i], std::nullopt, RunStatus::Ok, {{"gpu0", 3 * GiB}, {"gpu1", GiB}}, 0.25));
    runs.push_back(run_of(i, kP[i], "fast", fast[i], std::nullopt, RunStatus::Ok,
                          i == 1 ? std::map<std::string, double>{{"gpu0", 2 * GiB}, {"gpu1", 5 * GiB}}
                                 : std::map<std::string, double>{{"gpu0", GiB}},
                          0.5));
    runs.push_back(run_of(i, kP[i], "cp", std::nullopt, 1e-3));
  }
  runs.push_back(run_of(0, kP[0], "flaky", std::nullopt, std::nullopt, RunStatus::Infeasible));
  runs.push_back(run_of(1, kP[1], "flaky", std::nullopt, std::nullopt, RunStatus::Error));
  runs.push_back(run_of(2, kP[2], "flaky", 1e-3));
  runs.push_back(run_of(3, kP[3], "flaky", 16e-3, std::nullopt, RunStatus::Limit));
  return set_of("grid", "base", {"a", "b"}, std::move(runs));
}

struct CompareTest : ::testing::Test {
  std::string dir = testing::temp_dir("compare-summary");
  std::string grid_h5 = dir + "/grid.h5";
  void SetUp() override { explore::write_results_h5(grid_h5, grid()); }
  nlohmann::json json_of(const std::string& args) {
    const auto r = run_cli("compare " + args + " --json");
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
};

TEST_F(CompareTest, GeomeanMinMaxAndWinTieLossByHand) {
  const auto j = json_of(grid_h5);
  const auto& fast = j["summary"]["placers"]["fast"];
  EXPECT_NEAR(fast["speedup"]["geomean"].get<double>(), std::pow(2.0 * 3.0 * 0.5 * (8.0 / 8.04), 0.25), 1e-12);
  EXPECT_DOUBLE_EQ(fast["speedup"]["min"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(fast["speedup"]["max"].get<double>(), 3.0);
  EXPECT_EQ(fast["speedup"]["points"], 4);
  EXPECT_EQ(fast["versus_baseline"], (nlohmann::json{{"wins", 2}, {"ties", 1}, {"losses", 1}}));
  // flaky: speed-ups only where it has a makespan (2x and 0.5x), a limit's makespan included.
  const auto& flaky = j["summary"]["placers"]["flaky"];
  EXPECT_NEAR(flaky["speedup"]["geomean"].get<double>(), 1.0, 1e-15);
  EXPECT_EQ(flaky["speedup"]["points"], 2);
  EXPECT_EQ(flaky["versus_baseline"], (nlohmann::json{{"wins", 1}, {"ties", 0}, {"losses", 1}}));
  // No tolerance: 8.04 ms against 8 ms is a loss.
  const auto exact = json_of(grid_h5 + " --tie 0");
  EXPECT_EQ(exact["summary"]["placers"]["fast"]["versus_baseline"],
            (nlohmann::json{{"wins", 2}, {"ties", 0}, {"losses", 2}}));
  // Against fast instead: base wins where fast lost.
  const auto over_fast = json_of(grid_h5 + " --baseline fast");
  EXPECT_EQ(over_fast["summary"]["placers"]["base"]["versus_baseline"],
            (nlohmann::json{{"wins", 1}, {"ties", 1}, {"losses", 2}}));
}

TEST_F(CompareTest, StatusCountsMemoryAndPlacementTime) {
  const auto j = json_of(grid_h5);
  const auto& p = j["summary"]["placers"];
  EXPECT_EQ(p["flaky"]["status"], (nlohmann::json{{"error", 1}, {"infeasible", 1}, {"ok", 1}, {"limit", 1}}));
  EXPECT_EQ(p["cp"]["status"], (nlohmann::json{{"bound", 4}}));
  EXPECT_EQ(p["base"]["status"], (nlohmann::json{{"ok", 4}}));
  EXPECT_EQ(p["base"]["peak_mem_bytes"].get<double>(), 3 * GiB);
  EXPECT_EQ(p["fast"]["peak_mem_bytes"].get<double>(), 5 * GiB);  // gpu1 at the second point
  EXPECT_TRUE(p["flaky"]["peak_mem_bytes"].is_null());
  EXPECT_EQ(p["base"]["placement_s"].get<double>(), 1.0);  // 4 x 0.25 s
  EXPECT_EQ(p["fast"]["placement_s"].get<double>(), 2.0);
  EXPECT_EQ(j["points"][1]["placers"]["fast"]["peak_mem_bytes"]["gpu1"].get<double>(), 5 * GiB);
  EXPECT_EQ(j["points"][1]["placers"]["fast"]["placement_s"].get<double>(), 0.5);
}

TEST_F(CompareTest, PivotsEachAxisByHand) {
  const auto j = json_of(grid_h5);
  const auto& a = j["summary"]["pivot"]["a"];
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0]["value"], "1");
  EXPECT_NEAR(a[0]["geomean_speedup"]["fast"].get<double>(), std::sqrt(2.0 * 3.0), 1e-12);
  EXPECT_NEAR(a[1]["geomean_speedup"]["fast"].get<double>(), std::sqrt(0.5 * 8.0 / 8.04), 1e-12);
  const auto& b = j["summary"]["pivot"]["b"];
  EXPECT_EQ(b[1]["value"], "y");
  EXPECT_NEAR(b[0]["geomean_speedup"]["fast"].get<double>(), 1.0, 1e-12);  // 2 and 0.5
  EXPECT_NEAR(b[1]["geomean_speedup"]["fast"].get<double>(), std::sqrt(3.0 * 8.0 / 8.04), 1e-12);
  EXPECT_TRUE(b[0]["geomean_speedup"]["cp"].is_null());
  const auto text = run_cli("compare " + grid_h5);
  EXPECT_NE(text.out.find("geomean speed-up over base per a\n"), std::string::npos) << text.out;
}

// A bound is a bound under both metrics that have one: never a value or a speed-up.
TEST_F(CompareTest, ABoundIsNeverASpeedup) {
  for (const char* metric : {"makespan", "predicted"}) {
    SCOPED_TRACE(metric);
    const auto j = json_of(grid_h5 + " --metric " + metric);
    const auto& cp = j["points"][0]["placers"]["cp"];
    EXPECT_TRUE(cp["value_s"].is_null());
    EXPECT_TRUE(cp["speedup"].is_null());
    EXPECT_EQ(cp["lower_bound_s"].get<double>(), 1e-3);
    EXPECT_EQ(cp["status"], "bound");
    EXPECT_TRUE(j["geomean_speedup"]["cp"].is_null());
    EXPECT_EQ(j["summary"]["placers"]["cp"]["speedup"]["points"], 0);
    EXPECT_TRUE(j["points"][0]["placers"]["fast"]["lower_bound_s"].is_null());
    const auto text = run_cli("compare " + grid_h5 + " --metric " + metric);
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("  >= 1.0000 ms  "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("bound 4"), std::string::npos) << text.out;
  }
}

TEST_F(CompareTest, SeveralFilesSideBySide) {
  const std::string other = dir + "/other.h5", fast_based = dir + "/fast.h5";
  explore::write_results_h5(other, set_of("other", "base", {"a"},
                                          {run_of(0, {{"a", "3"}}, "base", 10e-3), run_of(0, {{"a", "3"}}, "fast", 5e-3)}));
  const auto j = json_of(grid_h5 + " " + other);
  EXPECT_EQ(j["scenario"], "grid, other");
  ASSERT_EQ(j["points"].size(), 5u);
  EXPECT_EQ(j["points"][4]["point"], (nlohmann::json{{"scenario", "other"}, {"a", "3"}}));
  const auto& fast = j["summary"]["placers"]["fast"];
  EXPECT_NEAR(fast["speedup"]["geomean"].get<double>(), std::pow(2.0 * 3.0 * 0.5 * (8.0 / 8.04) * 2.0, 0.2), 1e-12);
  EXPECT_EQ(fast["versus_baseline"]["wins"], 3);
  const auto& by_scenario = j["summary"]["pivot"]["scenario"];
  EXPECT_EQ(by_scenario[1]["value"], "other");
  EXPECT_DOUBLE_EQ(by_scenario[1]["geomean_speedup"]["fast"].get<double>(), 2.0);
  EXPECT_EQ(j["summary"]["pivot"]["a"].size(), 3u);  // 1, 2 and 3
  // Files whose baselines differ need one named.
  explore::write_results_h5(fast_based, set_of("third", "fast", {}, {run_of(0, {}, "fast", 1e-3)}));
  const auto clash = run_cli("compare " + grid_h5 + " " + fast_based);
  EXPECT_EQ(clash.code, 2);
  EXPECT_NE(clash.err.find(fast_based + ": its baseline is fast, an earlier file's base: name one with --baseline"),
            std::string::npos)
      << clash.err;
  EXPECT_EQ(run_cli("compare " + grid_h5 + " " + fast_based + " --baseline base --json").code, 0);
}

TEST_F(CompareTest, MarkdownTables) {
  const auto r = run_cli("compare " + grid_h5 + " --markdown");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("### per placer: speed-ups over base (a tie: within 1%)\n\n| placer | points |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| fast | 4 | 1.314x | 0.500x | 3.000x | 2/1/1 | 5.00 GiB | 2 s | ok 4 |"), std::string::npos)
      << r.out;
}

// `run --json` marks a bound as one too: lower_bound_s is its prediction, null for a plan.
TEST(RunJson, MarksABound) {
  const std::string dir = testing::temp_dir("run-bound");
  std::ofstream(dir + "/s.yaml") << "hardware: sortinghat-v100\n"
                                    "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 32,"
                                    " phase: prefill}\n"
                                    "placers: [single-device, critical-path]\n";
  const auto r = run_cli("run " + dir + "/s.yaml --json -o " + dir + "/r.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["runs"][0]["lower_bound_s"].is_null());
  EXPECT_TRUE(j["runs"][1]["makespan_s"].is_null());
  EXPECT_GT(j["runs"][1]["lower_bound_s"].get<double>(), 0);
  EXPECT_EQ(j["runs"][1]["lower_bound_s"], j["runs"][1]["predicted_s"]);
}

// Not a results file: a located error before any output, whichever position it is given in.
TEST_F(CompareTest, AFileThatIsNotResultsIsAnErrorBeforeAnyOutput) {
  const std::string text = dir + "/notes.txt";
  std::ofstream(text) << "not hdf5\n";
  for (const std::string& args : {text, grid_h5 + " " + text, grid_h5 + " " + dir + "/missing.h5"}) {
    SCOPED_TRACE(args);
    const auto r = run_cli("compare " + args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("placesim: error: results file " + dir), std::string::npos) << r.err;
  }
  // HDF5, but placesim validate's.
  const std::string validation = std::string(PLACESIM_SOURCE_DIR) + "/results/validate/validate-transformer-cpu.h5";
  const auto v = run_cli("compare " + grid_h5 + " " + validation);
  EXPECT_EQ(v.code, 2);
  EXPECT_EQ(v.out, "");
  EXPECT_NE(v.err.find("results file " + validation + " is placesim validate's (predicted against measured), not a "
                       "`run` results file: `placesim plot measured` reads it"),
            std::string::npos)
      << v.err;
  EXPECT_EQ(run_cli("compare " + grid_h5 + " --tie 1.5").code, 2);
}

}  // namespace
}  // namespace placesim
