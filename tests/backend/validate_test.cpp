// validate end to end on a CPU scenario (JSON fields, every task compared, the results file),
// and the GEMM shapes recovered from a matmul's work.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/run_cli.hpp"
#include "sim/explore/validate_workload.hpp"

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
