// validate end to end on a CPU scenario (JSON fields, every task compared, the results file),
// and the GEMM shapes recovered from a matmul's work.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"
#include "scheduler/lower/lower.hpp"
#include "app/explore/runner.hpp"
#include "app/explore/scenario.hpp"
#include "app/explore/validate_workload.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(Validate, RunsEndToEndOnACpuScenario) {
  const std::string dir = temp_dir("validate");
  const auto r = run_cli("validate " + std::string(PLACESIM_SOURCE_DIR) +
                         "/scenarios/validate/lstm.yaml --json --cpu-cores 1,2 --repeats 1 --warmup 0 -o " + dir + "/v.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["backend"], "cpu");
  ASSERT_EQ(j["runs"].size(), 2u);  // one placer, on 1 and on 2 cores
  for (const auto& run : j["runs"]) {
    EXPECT_EQ(run["status"], "ok") << run.dump();
    EXPECT_GT(run["measured_s"].get<double>(), 0);
    EXPECT_GT(run["predicted_s"].get<double>(), 0);
    EXPECT_GT(run["task_error"]["compared"].get<int>(), 0);
  }
  EXPECT_TRUE(std::filesystem::exists(dir + "/v.h5"));
  // scenarios/validate/local-cpu.yaml records no machine: the run says its costs may be
  // another machine's, and what to do.
  EXPECT_NE(r.err.find("note: hardware 'local-cpu' records no machine its calibration was measured on"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("validate with --set hardware=hw/mine.yaml"), std::string::npos) << r.err;
}

TEST(Validate, RunsAPlanOnTwoCoresAndReportsItsRepeats) {
  const std::string dir = temp_dir("validate-cores");
  const auto r = run_cli("validate " + std::string(PLACESIM_SOURCE_DIR) +
                         "/scenarios/validate/lstm.yaml --json --cpu-cores 2 --repeats 2 --warmup 0 -o " + dir + "/v.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 1u);
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["status"], "ok") << run.dump();
  EXPECT_EQ(run["point"]["cpu_cores"], "2");
  const auto& rep = run["repeats"];
  ASSERT_EQ(rep["makespans_s"].size(), 2u);
  // The kept run is the lower median of two: the faster one.
  EXPECT_EQ(rep["min_s"].get<double>(), run["measured_s"].get<double>());
  EXPECT_GE(rep["max_s"].get<double>(), rep["min_s"].get<double>());
  EXPECT_DOUBLE_EQ(rep["spread"].get<double>(),
                   (rep["max_s"].get<double>() - rep["min_s"].get<double>()) / run["measured_s"].get<double>());
}

// A linear layer split by columns over the CPU's two cores (scenarios/validate/sliced-gemm.yaml):
// each slice runs on its own core as a GEMM of its sliced shape (512 x 512 x 1024 of the whole
// 512 x 1024 x 1024), and validate measures and compares both.
TEST(Validate, MeasuresEachSliceOfASplitOp) {
  const std::string dir = temp_dir("validate-sliced");
  const auto r = run_cli("validate " + std::string(PLACESIM_SOURCE_DIR) +
                         "/scenarios/validate/sliced-gemm.yaml --json --repeats 1 --warmup 0 -o " + dir + "/v.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 2u);  // the split plan, then the whole op on one device
  const auto& split = j["runs"][0];
  ASSERT_EQ(split["status"], "ok") << split.dump();
  EXPECT_EQ(split["task_error"]["compared"], 2);
  std::set<std::string> measured;
  for (const auto& t : split["worst_tasks"]) {
    EXPECT_GT(t["measured_s"].get<double>(), 0);
    measured.insert(t["name"].get<std::string>());
  }
  EXPECT_EQ(measured, (std::set<std::string>{"fc#0", "fc#1"}));

  using namespace placesim;
  const explore::Scenario s = explore::load_scenario(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/validate/sliced-gemm.yaml");
  const scheduler::Problem p = explore::build_problem(s, s.points.at(0));
  const scheduler::Plan plan = *explore::run_placer(p, s.placers.at(0), "").plan;
  const scheduler::Lowered low = scheduler::lower(p, plan);
  const backend::Workload w = explore::make_workload(p, plan, low);
  // The two slices, then their dispatches (the calibrated machine's runtime: nothing to run).
  ASSERT_EQ(w.tasks.size(), 4u);
  for (std::size_t t = 0; t < 2; ++t) {
    const backend::Work& gemm = w.tasks[t];
    EXPECT_EQ(gemm.kind, backend::WorkKind::Gemm);
    EXPECT_EQ(std::vector<long>({gemm.m, gemm.n, gemm.k}), std::vector<long>({512, 512, 1024}));
  }
  for (std::size_t t = 2; t < 4; ++t) EXPECT_EQ(w.tasks[t].kind, backend::WorkKind::None);
  EXPECT_NE(w.queue_unit[0], w.queue_unit[1]);  // one core each
}

TEST(Validate, BadCoreCountsAreInputErrors) {
  const auto r = run_cli("validate " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/validate/lstm.yaml --cpu-cores 1,x");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--cpu-cores"), std::string::npos) << r.err;
}

TEST(Validate, MatmulShapeFromItsWork) {
  // A transformer qkv projection: N = 16 tokens, K = 1280, M = 3840, fp32 (transformer_ops.cpp).
  placesim::models::Node op;
  const double N = 16, K = 1280, M = 3840, e = 4;
  op.flops = 2 * N * K * M;
  op.output_bytes = e * N * M;
  op.bytes = e * N * K + e * K * M + e * N * M;
  const auto s = placesim::explore::matmul_shape(op, e);
  EXPECT_EQ(s.m, 16);
  EXPECT_EQ(s.n, 3840);
  EXPECT_EQ(s.k, 1280);
}

}  // namespace
