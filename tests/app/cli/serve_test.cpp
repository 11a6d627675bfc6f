// placesim serve: a scenario's placers serving its request stream, checked against what the
// other commands give (a lone request's time to first token is its prefill plan's makespan),
// and its bad inputs located.
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace placesim {
namespace {

using testing::run_cli;
using testing::temp_dir;
using testing::write_file;

const char* kScenario =
    "name: s\nhardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, layers: 2, dtype: fp16}\n"
    "weights: resident\nplacers: [single-device, {name: megatron-tp, tp: 4}, critical-path]\n";

// Requests 10 s apart, prompts of 8 tokens (a bucket edge), one token each: every request finds the
// replica idle, so its time to first token is one prefill of 8 tokens, which `plan` simulates for
// a scenario whose model is that prefill.
TEST(Serve, ALoneRequestsFirstTokenIsItsPrefillPlansMakespan) {
  const std::string dir = temp_dir("serve");
  write_file(dir, "trace.csv", "arrival_s,prompt_tokens,output_tokens\n0,8,1\n10,8,1\n20,8,1\n");
  const std::string serving = write_file(dir, "serve.yaml", std::string(kScenario) +
                                                                "requests: {arrival: trace, file: trace.csv}\n");
  const auto r = run_cli("serve " + serving + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& runs = doc["points"][0]["runs"];
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[2]["status"], "bound");
  const std::string prefill = write_file(
      dir, "prefill.yaml",
      "name: p\nhardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, layers: 2, dtype: fp16, "
      "batch: 1, seq: 8, phase: prefill}\nweights: resident\nplacers: [single-device, {name: megatron-tp, tp: 4}]\n");
  for (int k = 0; k < 2; ++k) {
    const std::string placer = runs[k]["placer"];
    ASSERT_EQ(runs[k]["status"], "ok") << runs[k]["message"];
    const auto plan = run_cli("plan " + prefill + " --placer '" + placer + "' --json");
    ASSERT_EQ(plan.code, 0) << plan.err;
    const double makespan = nlohmann::json::parse(plan.out)["makespan_s"];
    // Up to the rounding of (arrival + time) - arrival at 10 s: 1e-15 s.
    EXPECT_NEAR(runs[k]["ttft_s"]["p50"].get<double>(), makespan, 1e-12) << placer;
    EXPECT_NEAR(runs[k]["ttft_s"]["p99"].get<double>(), makespan, 1e-12) << placer;
    EXPECT_EQ(runs[k]["preemptions"], 0);
  }
}

// The iteration-time buckets on the repository's serving scenarios, at the default width: within
// 2% of simulating the sampled iterations themselves, for every placer and load.
TEST(Serve, BucketsAreWithinTwoPercentOnTheServingScenarios) {
  std::vector<std::string> scenarios;
  for (const auto& e : std::filesystem::directory_iterator(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/serving"))
    if (e.path().extension() == ".yaml") scenarios.push_back(e.path().string());
  ASSERT_FALSE(scenarios.empty());
  for (const std::string& scenario : scenarios) {
    const auto r = run_cli("serve " + scenario + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    int checked = 0;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    for (const auto& point : doc["points"])
      for (const auto& run : point["runs"]) {
        ASSERT_EQ(run["status"], "ok") << run["message"];
        EXPECT_GT(run["error_samples"].get<int>(), 10);
        EXPECT_LT(run["bucket_error"].get<double>(), 0.02) << run["placer"];
        ++checked;
      }
    EXPECT_GT(checked, 0) << scenario;
  }
}

// capacity's answer, checked with serve: at the rate it gives, serve meets the targets with the
// very percentiles capacity reports (the same stream, the same plans); 5% above it, it does not.
TEST(Serve, CapacityIsTheRateWhereServeStopsMeetingTheTargets) {
  const std::string scenario = std::string(PLACESIM_SOURCE_DIR) + "/scenarios/serving/v100-gpt2.yaml";
  const auto cap = run_cli("capacity " + scenario + " --slo ttft_p99=500ms,tpot_p99=50ms --set 'sweep.requests.rate=[10]' --json");
  ASSERT_EQ(cap.code, 0) << cap.err;
  const nlohmann::json doc = nlohmann::json::parse(cap.out);
  const auto& runs = doc["points"][0]["runs"];
  ASSERT_EQ(runs.size(), 2u);
  for (size_t k = 0; k < runs.size(); ++k) {
    ASSERT_EQ(runs[k]["status"], "ok") << runs[k]["message"];
    const double rate = runs[k]["max_rate"];
    auto served = [&](double r) {
      const auto out = run_cli("serve " + scenario + fmt::format(" --set 'sweep.requests.rate=[{}]' --json", r));
      EXPECT_EQ(out.code, 0) << out.err;
      return nlohmann::json::parse(out.out)["points"][0]["runs"][k];
    };
    const auto at = served(rate);
    EXPECT_EQ(at["ttft_s"]["p99"].get<double>(), runs[k]["ttft_p99_s"].get<double>());
    EXPECT_LE(at["ttft_s"]["p99"].get<double>(), 0.5);
    EXPECT_LE(at["tpot_s"]["p99"].get<double>(), 0.05);
    const auto above = served(1.05 * rate);
    EXPECT_TRUE(above["ttft_s"]["p99"].get<double>() > 0.5 || above["tpot_s"]["p99"].get<double>() > 0.05)
        << runs[k]["placer"] << " still meets the targets 5% above its capacity";
  }
  const auto bad = run_cli("capacity " + scenario + " --slo ttft_p97=1s");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--slo: 'ttft_p97=1s': the statistic is p50, p90, p99 or mean"), std::string::npos) << bad.err;
}

TEST(Serve, BadInputIsLocatedAndRunRefusesAStream) {
  const std::string dir = temp_dir("serve-bad");
  const std::string stream = "requests: {rate: 5, prompt: 64, output: 16, count: 20}\n";
  const struct {
    std::string command, scenario, says;
  } cases[] = {
      {"run", stream, "s.yaml:6:11: this scenario serves a request stream: run it with `placesim serve`"},
      {"serve", "", "s.yaml:1:1: `placesim serve` needs a request stream: a `requests:` key"},
      {"serve", stream + "serving: {batching: greedy}\n",
       "s.yaml:7:21: batching must be static, continuous or chunked; got greedy"},
      {"serve", stream + "serving: {max_batch: 0}\n", "s.yaml:7:22: max_batch must be from 1 to 1000000; got 0"},
      {"serve", stream + "serving: {slo: {ttft: soon}}\n", "s.yaml:7:23:"},
      {"serve", "requests: {rate: 5, prompt: 1000, output: 100, count: 20}\n",
       "s.yaml:6:11: request 1 (prompt 1000, output 100 tokens) is longer than gpt2-large's 1024 positions"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.says);
    const std::string file = write_file(dir, "s.yaml", std::string(kScenario) + c.scenario);
    const auto r = run_cli(c.command + " " + file + (c.command == "run" ? " -o " + dir + "/out.h5" : ""));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace placesim
