// placesim serve: a scenario's placers serving its request stream, checked against what the
// other commands give (a lone request's time to first token is its prefill plan's makespan),
// and its bad inputs located.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/explore/results_h5.hpp"
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

// replicas: auto holds as many copies of a plan as the machine's GPUs: the eight A100s of a DGX
// hold eight single-GPU replicas, two of tensor parallelism over 4 (one group on gpu0-3) and one
// over 8; three over 4 do not fit. The stream is the same, dealt round-robin.
TEST(Serve, AutoReplicasAreTheCopiesTheMachineHolds) {
  const std::string dir = temp_dir("serve-replicas");
  const std::string head =
      "name: s\nhardware: dgx-a100\nmodel: {generator: transformer, arch: gpt2-large, layers: 2, dtype: fp16}\n"
      "weights: resident\nplacers: [single-device, {name: megatron-tp, devices: [gpu0, gpu1, gpu2, gpu3]}, megatron-tp]\n"
      "requests: {rate: 50, prompt: 64, output: 16, count: 200}\n";
  const auto r = run_cli("serve " + write_file(dir, "auto.yaml", head + "serving: {replicas: auto}\n") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto runs = nlohmann::json::parse(r.out)["points"][0]["runs"];
  const int expected[] = {8, 2, 1};
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(runs[k]["status"], "ok") << runs[k]["message"];
    EXPECT_EQ(runs[k]["replicas"], expected[k]) << runs[k]["placer"];
  }
  const auto three = run_cli("serve " + write_file(dir, "three.yaml", head + "serving: {replicas: 3}\n") + " --json");
  ASSERT_EQ(three.code, 0) << three.err;
  const auto tp4 = nlohmann::json::parse(three.out)["points"][0]["runs"][1];
  EXPECT_EQ(tp4["status"], "infeasible");
  EXPECT_EQ(tp4["message"], "3 replicas do not fit: one uses 4 of the machine's 8 gpu devices");
}

// serve -o keeps what serve prints: compare reads each latency statistic back as serve --json
// gave it, and the TTFT quantiles hold the same nearest ranks (p50 at 50%, p99 at 99%).
TEST(Serve, ItsResultsFileHoldsWhatItPrints) {
  const std::string dir = temp_dir("serve-results");
  const std::string file = write_file(dir, "s.yaml", std::string(kScenario) +
                                                         "requests: {rate: 40, prompt: 64, output: 16, count: 300}\n");
  const auto r = run_cli("serve " + file + " -o " + dir + "/s.h5 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto runs = nlohmann::json::parse(r.out)["points"][0]["runs"];
  for (const std::string latency : {"ttft", "tpot", "e2e"})
    for (const std::string stat : {"mean", "p50", "p90", "p99"}) {
      const auto c = run_cli("compare " + dir + "/s.h5 --metric " + stat + "_" + latency + " --json");
      ASSERT_EQ(c.code, 0) << c.err;
      const auto placers = nlohmann::json::parse(c.out)["points"][0]["placers"];
      for (int k = 0; k < 2; ++k)
        EXPECT_EQ(placers[runs[k]["placer"].get<std::string>()]["value_s"], runs[k][latency + "_s"][stat]) << stat << latency;
    }
  const explore::RunSet set = explore::read_results_h5(dir + "/s.h5");
  ASSERT_EQ(set.runs.size(), 3u);
  EXPECT_FALSE(set.runs[2].serving.has_value());  // the bound
  for (int k = 0; k < 2; ++k) {
    const explore::ServingMetrics& m = set.runs[k].serving->metrics;
    ASSERT_EQ(m.ttft_quantiles.size(), 101u);
    EXPECT_EQ(m.ttft_quantiles[50], m.ttft.p50);
    EXPECT_EQ(m.ttft_quantiles[99], m.ttft.p99);
    EXPECT_TRUE(std::is_sorted(m.ttft_quantiles.begin(), m.ttft_quantiles.end()));
    EXPECT_EQ(set.runs[k].serving->replicas, runs[k]["replicas"]);
  }
}

// serve --trace draws what it served: a lane per replica with an event per iteration (as many as
// serve counts, none overlapping on its lane), and each request's time to first token read off
// its async events averages to serve's mean TTFT.
TEST(Serve, ItsTraceShowsEveryIterationAndRequest) {
  const std::string dir = temp_dir("serve-trace");
  const std::string file = write_file(
      dir, "s.yaml",
      "name: s\nhardware: dgx-a100\nmodel: {generator: transformer, arch: gpt2-large, layers: 2, dtype: fp16}\n"
      "weights: resident\nplacers: [single-device]\nrequests: {rate: 400, prompt: 64, output: 8, count: 120}\n"
      "serving: {replicas: 3}\n");
  const auto r = run_cli("serve " + file + " --trace " + dir + "/traces --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto run = nlohmann::json::parse(r.out)["points"][0]["runs"][0];
  const auto trace = nlohmann::json::parse(testing::read_all(dir + "/traces/0-single-device.json"))["traceEvents"];
  std::map<int, double> lane_end;
  int iterations = 0;
  std::map<int, double> arrival;
  double ttft_sum = 0;
  for (const auto& e : trace) {
    if (e["ph"] == "X") {
      ++iterations;
      const int lane = e["tid"];
      EXPECT_GE(e["ts"].get<double>(), lane_end[lane] - 1e-6);
      lane_end[lane] = e["ts"].get<double>() + e["dur"].get<double>();
    }
    if (e.value("name", "") != "to first token") continue;
    if (e["ph"] == "b") arrival[e["id"]] = e["ts"];
    else ttft_sum += e["ts"].get<double>() - arrival.at(e["id"]);
  }
  EXPECT_EQ(iterations, run["iterations"]);
  EXPECT_EQ(lane_end.size(), 3u);
  EXPECT_EQ(arrival.size(), 120u);
  EXPECT_NEAR(ttft_sum / 120 * 1e-6, run["ttft_s"]["mean"].get<double>(), 1e-9);
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
      {"serve", stream + "serving: {replicas: 0}\n", "s.yaml:7:21: replicas must be auto or from 1 to 4096; got 0"},
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
