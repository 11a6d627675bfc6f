// The command line end to end: determinism, bad input (exit 2, file:line:column, no output
// file), infeasible as a result, --set overrides, list, plan -> simulate round trips (by graph
// file and by scenario), compare.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"
#include "models/cost/cost_models.hpp"
#include "models/workload.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;

const std::string kSrc = PLACESIM_SOURCE_DIR;

using placesim::testing::write_file;

const char* kSmall =
    "name: small\n"
    "hardware: sortinghat-v100\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, phase: prefill}\n"
    "placers: [single-device, round-robin, critical-path]\n"
    "baseline: single-device\n"
    "sweep:\n"
    "  model.seq: [32, 64]\n";

TEST(Cli, SameScenarioTwiceGivesByteIdenticalJson) {
  const std::string dir = temp_dir("det");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto a = run_cli("run " + s + " --json -j 2 -o " + dir + "/a.h5");
  const auto b = run_cli("run " + s + " --json -j 1 -o " + dir + "/b.h5");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  const auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["runs"].size(), 6u);  // 2 points x 3 placers
}

// The MILP placers with node limits (and time limits far away) print the same twice: no
// wall-clock figure outside --timing.
TEST(Cli, MilpScenarioWithNodeLimitsGivesByteIdenticalJson) {
  const std::string dir = temp_dir("det-milp");
  const std::string s = write_file(dir, "s.yaml",
                              "name: milp\n"
                              "hardware: sortinghat-v100\n"
                              "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 32, phase: prefill}\n"
                              "weights: resident\n"  // milp-moirai needs it (docs/placers.md)
                              "placers:\n"
                              "  - {name: milp-sortinghat, time_limit: 600, submodel_limit: 600, node_limit: 30}\n"
                              "  - {name: milp-moirai, time_limit: 600, node_limit: 30}\n");
  const auto a = run_cli("run " + s + " --json -o " + dir + "/a.h5");
  const auto b = run_cli("run " + s + " --json -o " + dir + "/b.h5");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
}

// Where each MILP placer's plan came from, on one layer of GPT-2 large with node limits. Warm
// from HEFT, SortingHat's own plan (chained submodels, weights copied from the host) simulates
// slower than HEFT's, so HEFT's plan is returned and the MILP's recorded beside it; warm from
// single-device, the MILP's plan beats it and is returned. Twice: byte-identical.
TEST(Cli, MilpRunsSayWhereTheirPlanCameFrom) {
  const std::string dir = temp_dir("plan-source");
  const std::string s = write_file(dir, "s.yaml",
                              "name: plan-source\n"
                              "hardware: sortinghat-v100\n"
                              "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 32, phase: prefill}\n"
                              "weights: host\n"
                              "placers:\n"
                              "  - heft\n"
                              "  - single-device\n"
                              "  - {name: milp-sortinghat, time_limit: 600, submodel_limit: 600, node_limit: 30, warm: [heft]}\n"
                              "  - {name: milp-sortinghat, time_limit: 600, submodel_limit: 600, node_limit: 30, warm: [single-device]}\n"
                              "baseline: single-device\n");
  const auto a = run_cli("run " + s + " --json -o " + dir + "/a.h5");
  const auto b = run_cli("run " + s + " --json -o " + dir + "/b.h5");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  const auto runs = nlohmann::json::parse(a.out)["runs"];
  ASSERT_EQ(runs.size(), 4u);
  const auto &heft = runs[0], &single = runs[1], &warm_wins = runs[2], &milp_wins = runs[3];
  EXPECT_TRUE(heft["milp"].is_null()) << "a heuristic has no MILP record";
  EXPECT_TRUE(heft["gap"].is_null());

  const auto& w = warm_wins["milp"];
  EXPECT_EQ(w["plan_source"], "warm:heft") << warm_wins["message"];
  EXPECT_EQ(warm_wins["makespan_s"], heft["makespan_s"]) << "the returned plan is HEFT's";
  EXPECT_TRUE(warm_wins["predicted_s"].is_null()) << "the MILP's model did not time HEFT's plan";
  ASSERT_TRUE(w["makespan_s"].is_number());
  EXPECT_GT(w["makespan_s"].get<double>(), warm_wins["makespan_s"].get<double>());
  EXPECT_LE(w["bound_s"].get<double>(), w["objective_s"].get<double>());
  EXPECT_EQ(w["solves"].get<int>(), 4) << "one layer: four dominator submodels";

  const auto& m = milp_wins["milp"];
  EXPECT_EQ(m["plan_source"], "milp") << milp_wins["message"];
  EXPECT_EQ(m["makespan_s"], milp_wins["makespan_s"]) << "the returned plan is the MILP's";
  EXPECT_LT(m["makespan_s"].get<double>(), single["makespan_s"].get<double>());
  EXPECT_EQ(m["objective_s"], milp_wins["predicted_s"]) << "chained: the last submodel's latency is the prediction";
  EXPECT_LE(m["bound_s"].get<double>(), m["objective_s"].get<double>());

  const auto plan = run_cli("plan " + s + " --placer '" + milp_wins["placer"].get<std::string>() + "' --json");
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["milp"], m);

  // The results file carries the same records, and compare shows them.
  const auto c = run_cli("compare " + dir + "/a.h5 --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto cells = nlohmann::json::parse(c.out)["points"][0]["placers"];
  EXPECT_EQ(cells[warm_wins["placer"].get<std::string>()]["milp"], w);
  EXPECT_EQ(cells[milp_wins["placer"].get<std::string>()]["milp"], m);
  EXPECT_TRUE(cells["heft"]["milp"].is_null());
  const auto text = run_cli("compare " + dir + "/a.h5");
  char marked[64];  // the warm-start cell: HEFT's speed-up over single-device, marked with its source
  std::snprintf(marked, sizeof marked, "(%.2fx) warm:heft",
                single["makespan_s"].get<double>() / heft["makespan_s"].get<double>());
  EXPECT_NE(text.out.find(marked), std::string::npos) << marked << "\n" << text.out;
  EXPECT_NE(text.out.find("the MILP's own plan per point"), std::string::npos) << text.out;
}

struct BadCase {
  const char* what;
  std::string scenario;   // scenario text
  std::string expect;     // substring of the one-line error (location and what was expected)
};

TEST(Cli, BadInputExitsTwoWithLocationAndWritesNothing) {
  const std::string dir = temp_dir("bad");
  std::string l32 = "[1";  // 32 values: four such axes make 32^4 > 10^5 points
  for (int i = 2; i <= 32; ++i) l32 += ", " + std::to_string(i);
  l32 += "]";
  const std::vector<BadCase> cases = {
      {"malformed yaml", "name: x\nplacers: [a, b\n", "s.yaml:3:1"},
      {"unknown key", "name: x\nhardwear: sortinghat-v100\n", "s.yaml:2:1: unknown key 'hardwear'"},
      {"unknown placer",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [magic]\n",
       "s.yaml:3:11: unknown placer 'magic'"},
      {"unknown option",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: round-robin, speed: 3}]\n",
       "s.yaml:3:38: unknown option 'speed'"},
      {"unknown preset",
       "hardware: no-such-box\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n",
       "no-such-box"},
      {"baseline not a placer",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n"
       "baseline: round-robin\n",
       "s.yaml:4:11: baseline 'round-robin' is not one of this scenario's placers"},
      {"bad value in the model",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, batch: 0}\n"
       "placers: [single-device]\n",
       "s.yaml:2:58: expected a positive integer"},
      {"bad swept value",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [single-device]\nsweep: {model.batch: [1, -2]}\n",
       "s.yaml:4:26: expected a positive integer"},
      {"unknown generator",
       "hardware: sortinghat-v100\nmodel: {generator: magic, layers: 2}\nplacers: [single-device]\n",
       "s.yaml:2:20: unknown workload 'magic' (known: graph-json, lstm, onnx, random-dag, transformer)"},
      {"unknown cost model",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\ncost: magic\n"
       "placers: [single-device]\n",
       "s.yaml:3:7: unknown cost model 'magic' (known: linear, roofline)"},
      {"generation of no token",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, phase: generate, output: 0}\n"
       "placers: [single-device]\n",
       "s.yaml:2:76: expected a positive integer, got '0'"},
      {"stride below 1",
       "hardware: sortinghat-v100\n"
       "model: {generator: transformer, arch: gpt2-large, phase: generate, output: 4, kv_stride: 0}\n"
       "placers: [single-device]\n",
       "s.yaml:2:90: expected a positive integer, got '0'"},
      {"output of one step",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, phase: prefill, output: 4}\n"
       "placers: [single-device]\n",
       "s.yaml:2:75: output applies to phase generate only (phase is prefill)"},
      {"swept output beyond the positions",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, seq: 1000, phase: generate}\n"
       "placers: [single-device]\nsweep: {model.output: [8, 64]}\n",
       "s.yaml:4:27: seq 1000 + output 64 needs 1063 positions; gpt2-large has 1024"},
      // The MILP placers' options (issue 15), each at its value.
      {"warm names the placer itself",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: milp-sortinghat, warm: [heft, milp-sortinghat]}]\n",
       "s.yaml:3:48: warm names 'milp-sortinghat' itself"},
      {"warm names an unknown placer",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: milp-moirai, warm: [heft, magic]}]\n",
       "s.yaml:3:44: unknown placer 'magic'"},
      {"q below 1",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: efficientmip, q: 0}]\n",
       "s.yaml:3:35: q must be >= 1"},
      {"a time limit below zero",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: milp-moirai, time_limit: -1}]\n",
       "s.yaml:3:43: time_limit must be >= 0"},
      {"a submodel budget below zero",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: milp-sortinghat, submodel_limit: -1}]\n",
       "s.yaml:3:51: submodel_limit must be > 0"},
      {"no solve and no warm start",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [{name: milp-sortinghat, time_limit: 0, warm: none}]\n",
       "s.yaml:3:47: time_limit 0 solves nothing"},
      // Issue 17: what was silently accepted.
      {"a key given twice",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n"
       "hardware: dgx-a100\n",
       "s.yaml:4:1: key 'hardware' is given twice (first at line 1, column 1)"},
      {"a key given twice in a flow map",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, arch: gpt2-xl}\n"
       "placers: [single-device]\n",
       "key 'arch' is given twice"},
      {"a negative seed",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n"
       "seed: -1\n",
       "s.yaml:4:7: seed must be a whole number >= 0"},
      {"a name that leaves results/",
       "name: ../escaped\nhardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\n"
       "placers: [single-device]\n",
       "s.yaml:1:7: scenario name '../escaped' must be a file name"},
      {"a sweep of more points than a run may hold",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n"
       "sweep:\n  model.batch: " + l32 + "\n  model.seq: " + l32 + "\n  model.layers: " + l32 + "\n  model.output: " + l32 + "\n",
       "s.yaml:5:3: the sweep's axes multiply to more than 100000 points"},
      {"zero bandwidth",
       "hardware: {devices: [{id: h, type: host_memory, memory: 1GiB}, {id: g, type: gpu, memory: 1GiB, "
       "memory_bw: 1GB/s, fp32: 1TFLOPS}], links: [{a: h, b: g, bw: 0GB/s}]}\n"
       "model: {generator: transformer, arch: gpt2-large}\nplacers: [single-device]\n",
       "s.yaml:1:"},
  };
  for (const BadCase& c : cases) {
    const std::string s = write_file(dir, "s.yaml", c.scenario);
    const std::string out = dir + "/should-not-exist.h5";
    const auto r = run_cli("run " + s + " -o " + out);
    EXPECT_EQ(r.code, 2) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.what << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.what;
  }
}

// A graph file swept by name resolves against the scenario's folder, as `model: {file:}` does,
// whatever the working directory.
TEST(Cli, ASweptModelFileIsFoundBesideTheScenario) {
  const std::string dir = temp_dir("swept-file");
  for (const char* g : {"a.json", "b.json"})
    write_file(dir, g, "{\"nodes\": [{\"name\": \"x\", \"flops\": 1e9}, {\"name\": \"y\", \"flops\": 2e9}],\n"
                  " \"edges\": [{\"src\": \"x\", \"dst\": \"y\", \"bytes\": 1e6}]}\n");
  const std::string s = write_file(dir, "s.yaml",
                              "hardware: sortinghat-v100\nmodel: {file: a.json}\nplacers: [single-device]\n"
                              "sweep: {model.file: [a.json, b.json]}\n");
  const auto r = run_cli("run " + s + " --json -o " + dir + "/out.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["runs"].size(), 2u);
}

TEST(Cli, CyclicGraphAndMissingNodeAreBadInput) {
  const std::string dir = temp_dir("badgraph");
  write_file(dir, "cyc.json",
        "{\"nodes\": [{\"name\": \"a\", \"flops\": 1}, {\"name\": \"b\", \"flops\": 1}],\n"
        " \"edges\": [{\"src\": \"a\", \"dst\": \"b\"}, {\"src\": \"b\", \"dst\": \"a\"}]}\n");
  write_file(dir, "dangling.json",
        "{\"nodes\": [{\"name\": \"a\", \"flops\": 1}],\n \"edges\": [{\"src\": \"a\", \"dst\": \"zz\"}]}\n");
  for (const char* g : {"cyc.json", "dangling.json"}) {
    const std::string s = write_file(dir, "s.yaml",
                                std::string("hardware: sortinghat-v100\nmodel: {file: ") + g +
                                    "}\nplacers: [single-device]\n");
    const auto r = run_cli("run " + s + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(std::string(g) + ":"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/x.h5"));
  }
}

TEST(Cli, ModelThatDoesNotFitIsInfeasibleAndOthersStillRun) {
  // LLaMA-2 70B in fp16 is ~138 GB of weights: it cannot fit one 32 GiB V100.
  const std::string dir = temp_dir("infeasible");
  const std::string s = write_file(dir, "s.yaml",
                              "hardware: sortinghat-v100\n"
                              "model: {generator: transformer, arch: llama2-70b, seq: 16, granularity: layer}\n"
                              "placers: [{name: single-device, device: gpu0}, critical-path]\n");
  const auto r = run_cli("run " + s + " --json -o " + dir + "/x.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runs"][0]["status"], "infeasible");
  EXPECT_NE(j["runs"][0]["message"].get<std::string>().find("gpu0"), std::string::npos);
  EXPECT_EQ(j["runs"][1]["status"], "ok");
}

TEST(Cli, SetOverridesAKeyBeforeTheSweep) {
  const std::string dir = temp_dir("set");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto a = run_cli("run " + s + " --json -o " + dir + "/a.h5 --set model.batch=4 --set sweep.model.seq=[16]");
  ASSERT_EQ(a.code, 0) << a.err;
  const auto j = nlohmann::json::parse(a.out);
  ASSERT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["runs"][0]["point"]["model.seq"], 16);  // a number, as in the CSV and the HDF5 file
}

// A point's values in JSON are typed as the results file types its axes: a numeric axis's as
// numbers (whole ones as integers, others as they read), any other axis's as text.
TEST(Cli, JsonPointValuesAreNumbersWhereTheAxisIs) {
  const std::string dir = temp_dir("json-types");
  const std::string s = write_file(dir, "s.yaml",
                                   "hardware: sortinghat-v100\n"
                                   "model: {generator: lstm, layers: 1, seq: 2}\n"
                                   "placers: [single-device]\n"
                                   "sweep:\n  model.seq: [2, 3]\n  model.dtype: [fp32, fp16]\n");
  const auto dry = run_cli("run " + s + " --dry-run --json");
  ASSERT_EQ(dry.code, 0) << dry.err;
  const auto p = nlohmann::json::parse(dry.out)["points"][1]["point"];
  EXPECT_EQ(p["model.seq"], 2);
  EXPECT_TRUE(p["model.seq"].is_number_integer());
  EXPECT_EQ(p["model.dtype"], "fp16");
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto r = nlohmann::json::parse(run.out)["runs"][3]["point"];
  EXPECT_EQ(r, (nlohmann::json{{"model.seq", 3}, {"model.dtype", "fp16"}}));
  const auto c = run_cli("compare " + dir + "/r.h5 --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(nlohmann::json::parse(c.out)["points"][3]["point"], r);
}

TEST(Cli, ListsPlacersPresetsAndModels) {
  const auto p = run_cli("list placers --json");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto pj = nlohmann::json::parse(p.out);
  std::set<std::string> names;
  for (const auto& e : pj) names.insert(e["name"]);
  EXPECT_TRUE(names.count("single-device") && names.count("round-robin") && names.count("critical-path"));
  const auto h = run_cli("list presets --json");
  ASSERT_EQ(h.code, 0);
  EXPECT_NE(h.out.find("sortinghat-v100"), std::string::npos);
  const auto m = run_cli("list models");
  ASSERT_EQ(m.code, 0);
  EXPECT_NE(m.out.find("llama2-70b"), std::string::npos);
  EXPECT_EQ(run_cli("list nonsense").code, 2);
}

// `list workloads` and `list cost-models` are their registries, entry for entry, with options.
TEST(Cli, ListsWorkloadsAndCostModelsFromTheirRegistries) {
  const auto w = run_cli("list workloads --json");
  ASSERT_EQ(w.code, 0) << w.err;
  const auto wj = nlohmann::json::parse(w.out);
  std::vector<std::string> listed;
  for (const auto& e : wj) listed.push_back(e["name"]);
  std::vector<std::string> registered;
  for (auto& [name, _] : placesim::models::workloads().all()) registered.push_back(name);
  EXPECT_EQ(listed, registered);
  for (const auto& e : wj)
    if (e["name"] == "transformer") {
      EXPECT_EQ(e["options"][0]["name"], "arch");
      EXPECT_TRUE(e["options"][0]["default"].is_null());  // required
      EXPECT_EQ(e["options"][1]["name"], "config");
      EXPECT_EQ(e["options"][2]["name"], "batch");
      EXPECT_EQ(e["options"][2]["default"], "1");
    }
  const auto c = run_cli("list cost-models --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  ASSERT_EQ(cj.size(), placesim::models::cost_models().all().size());
  EXPECT_EQ(cj[0]["name"], "linear");
  EXPECT_EQ(cj[0]["options"][0]["name"], "threads");
  EXPECT_EQ(cj[1]["name"], "roofline");
  const auto text = run_cli("list workloads");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("random-dag"), std::string::npos);
  EXPECT_NE(text.out.find("arch: architecture (placesim list models), unless config gives one (required)"), std::string::npos) << text.out;
}

TEST(Cli, PlanThenSimulateGivesTheSameMakespan) {
  const std::string dir = temp_dir("plan");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto p = run_cli("plan " + s + " --placer round-robin --json -o " + dir + "/plan.json --graph-out " + dir +
                         "/graph.json");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto pj = nlohmann::json::parse(p.out);
  const auto sim = run_cli("simulate --hardware sortinghat-v100 --graph " + dir + "/graph.json --plan " + dir +
                           "/plan.json --json");
  ASSERT_EQ(sim.code, 0) << sim.err;
  const auto sj = nlohmann::json::parse(sim.out);
  EXPECT_EQ(sj["makespan_s"].get<double>(), pj["makespan_s"].get<double>());
  EXPECT_EQ(sj["status"], "ok");
}

// A plan a person writes: only `devices`. The plan builder lays out the rest as it does for every
// placer, so single-device's devices alone simulate to single-device's makespan; moving two ops
// to another GPU needs no hand-made copies; and anything beyond devices without queues is a
// located error that says what to do.
TEST(Cli, APlanOfDevicesOnlyIsCompletedByTheBuilder) {
  const std::string dir = temp_dir("plan-devices");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto p = run_cli("plan " + s + " --placer single-device --json -o " + dir + "/full.json");
  ASSERT_EQ(p.code, 0) << p.err;
  const auto full = nlohmann::ordered_json::parse(read_all(dir + "/full.json"));
  ASSERT_EQ(run_cli("plan " + s + " --placer single-device --minimal -o " + dir + "/devices.json").code, 0);
  auto devices = nlohmann::ordered_json::parse(read_all(dir + "/devices.json"));
  EXPECT_EQ(devices, (nlohmann::ordered_json{{"placer", "single-device"}, {"devices", full["devices"]}}));
  const auto same = run_cli("simulate --scenario " + s + " --plan " + dir + "/devices.json --json");
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(nlohmann::json::parse(same.out)["makespan_s"], nlohmann::json::parse(p.out)["makespan_s"]);

  int moved = 0;
  for (auto& [op, dev] : devices["devices"].items())
    if (moved < 2 && op.rfind("l1.", 0) == 0) dev = "gpu1", ++moved;
  ASSERT_EQ(moved, 2);
  std::ofstream(dir + "/moved.json") << devices.dump(1);
  const auto edited = run_cli("simulate --scenario " + s + " --plan " + dir + "/moved.json --json");
  ASSERT_EQ(edited.code, 0) << edited.err;
  EXPECT_EQ(nlohmann::json::parse(edited.out)["status"], "ok");

  // A full plan edited by hand: an op moved to the GPU its output was delivered to, its queues
  // left as they were. The error points at the op's old queue entry and says what to do.
  ASSERT_EQ(run_cli("plan " + s + " --placer round-robin -o " + dir + "/rr.json").code, 0);
  auto rr = nlohmann::ordered_json::parse(read_all(dir + "/rr.json"));
  std::string delivery;
  for (const auto& q : rr["queues"])
    for (const auto& t : q["tasks"])
      if (delivery.empty() && t.get<std::string>().find('@') != std::string::npos &&
          rr["devices"].contains(t.get<std::string>().substr(0, t.get<std::string>().find('@'))))
        delivery = t.get<std::string>();
  ASSERT_FALSE(delivery.empty());
  const std::string op = delivery.substr(0, delivery.find('@')), to = delivery.substr(delivery.find('@') + 1);
  rr["devices"][op] = to;
  std::ofstream(dir + "/rr.json") << rr.dump(1);
  const auto self = run_cli("simulate --scenario " + s + " --plan " + dir + "/rr.json");
  EXPECT_EQ(self.code, 2);
  EXPECT_NE(self.err.find(dir + "/rr.json:"), std::string::npos) << self.err;
  EXPECT_NE(self.err.find("'" + op + "' is not an op placed there (it is placed on '" + to + "': move it to a queue "
                          "of that device, or give the plan only `devices`"),
            std::string::npos) << self.err;

  std::ofstream(dir + "/bad.json") << "{\"devices\": " << full["devices"].dump() << ",\n \"dispatch\": [[]]}";
  const auto bad = run_cli("simulate --scenario " + s + " --plan " + dir + "/bad.json");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find(dir + "/bad.json:2:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("a plan without `queues` gives only `devices`"), std::string::npos) << bad.err;
}

// Two nodes of two A100s (asymgroup generator), gpt2-large cut to 2 layers, decode of batch 8:
// each tensor-parallel placer says what it chose as a JSON object. asymgroup with the groups
// given, [n0] and [n1] (equal capabilities C), has the Eq. 5 volume of the first linear's input
// B = a N h = 2 x 8 x 1280 = 20480 bytes: each group holds B/2 and its one node all of it
// (c_max / C_G = 1), so the one all-gather step between the groups is B/2; a group of one node
// has C_G - c_min = 0, so no intragroup volume: 10240 bytes.
const char* kTensorParallel =
    "name: tp\n"
    "hardware: {generator: asymgroup, nodes: [2, 2]}\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 8, seq: 128, phase: decode, dtype: fp16}\n"
    "weights: resident\n"
    "placers: [{name: megatron-tp, tp: 2}, {name: autoddl-2d, k: 2}, {name: asymgroup, groups: [[n0], [n1]]}]\n";

TEST(Cli, RunAndPlanJsonCarryThePlacersChoices) {
  const std::string dir = temp_dir("choices");
  const std::string s = write_file(dir, "s.yaml", kTensorParallel);
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto runs = nlohmann::json::parse(run.out)["runs"];
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]["choices"], nlohmann::json::parse(R"({"tp": 2, "replicas": 2})"));
  EXPECT_EQ(runs[1]["choices"], nlohmann::json::parse(R"({"k": 2})"));
  EXPECT_EQ(runs[1]["message"], "k = 2 groups of 2 GPUs");
  EXPECT_EQ(runs[2]["choices"], nlohmann::json::parse(R"({"k": 2, "groups": [["n0"], ["n1"]], "volume_bytes": 10240.0})"));
  EXPECT_NE(runs[2]["message"].get<std::string>().find("k = 2: [n0] [n1]"), std::string::npos) << runs[2]["message"];
  const auto plan = run_cli("plan " + s + " --placer 'megatron-tp{tp=2}' --json");
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_EQ(nlohmann::json::parse(plan.out)["choices"], runs[0]["choices"]);
  // By its bare name, the scenario's only megatron-tp keeps the options the scenario gives it
  // (tp = 2, two replicas), not the defaults (tp: all, one replica).
  const auto by_name = run_cli("plan " + s + " --placer megatron-tp --json");
  ASSERT_EQ(by_name.code, 0) << by_name.err;
  EXPECT_EQ(nlohmann::json::parse(by_name.out)["choices"], runs[0]["choices"]);
}

// Weights resident, so a plan for it delivers no weights: scored with weights starting on the
// host (the direct form's default) it is missing its copies, so only a simulate that takes the
// weights (and cost model, and graph at --point with --set) from the scenario reproduces it.
const char* kResident =
    "name: resident\n"
    "hardware: sortinghat-v100\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, phase: prefill}\n"
    "weights: resident\n"
    "cost: roofline\n"
    "placers: [single-device, round-robin]\n"
    "sweep:\n"
    "  model.seq: [32, 64]\n";

TEST(Cli, SimulateWithTheScenarioReproducesPlanAndRun) {
  const std::string dir = temp_dir("sim-scenario");
  const std::string s = write_file(dir, "s.yaml", kResident);
  const std::string over = " --point 1 --set model.batch=2";
  const auto p = run_cli("plan " + s + " --placer round-robin --json -o " + dir + "/plan.json --graph-out " + dir +
                         "/graph.json" + over);
  ASSERT_EQ(p.code, 0) << p.err;
  const double planned = nlohmann::json::parse(p.out)["makespan_s"];
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5 --set model.batch=2");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto rj = nlohmann::json::parse(run.out);
  const auto& rr = rj["runs"][3];  // point 1, round-robin
  ASSERT_EQ(rr["placer"], "round-robin");
  EXPECT_EQ(rr["makespan_s"].get<double>(), planned);

  const auto sim = run_cli("simulate --scenario " + s + " --plan " + dir + "/plan.json --json" + over);
  ASSERT_EQ(sim.code, 0) << sim.err;
  EXPECT_EQ(nlohmann::json::parse(sim.out)["makespan_s"].get<double>(), planned);
  // Without the overrides it is another problem (point 0, batch 1), so another makespan.
  const auto other = run_cli("simulate --scenario " + s + " --plan " + dir + "/plan.json --json");
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_NE(nlohmann::json::parse(other.out)["makespan_s"].get<double>(), planned);

  // The direct form scores the same only when told what the scenario says.
  const std::string direct = "simulate --hardware sortinghat-v100 --graph " + dir + "/graph.json --plan " + dir + "/plan.json";
  const auto host = run_cli(direct);
  EXPECT_EQ(host.code, 2);
  EXPECT_NE(host.err.find("no delivery"), std::string::npos) << host.err;
  const auto resident = run_cli(direct + " --weights resident --cost roofline --json");
  ASSERT_EQ(resident.code, 0) << resident.err;
  EXPECT_EQ(nlohmann::json::parse(resident.out)["makespan_s"].get<double>(), planned);

  // The scenario's cost model is the one looked up.
  std::string bad = kResident;
  bad.replace(bad.find("cost: roofline"), 14, "cost: magic");
  const auto b = run_cli("simulate --scenario " + write_file(dir, "bad.yaml", bad) + " --plan " + dir + "/plan.json");
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("bad.yaml:5:7: unknown cost model 'magic' (known: linear, roofline)"), std::string::npos) << b.err;
}

TEST(Cli, SimulateTakesOneFormOrTheOther) {
  const std::string dir = temp_dir("sim-forms");
  const std::string s = write_file(dir, "s.yaml", kResident);
  const std::string plan = " --plan " + dir + "/plan.json";
  ASSERT_EQ(run_cli("plan " + s + " --placer single-device -o " + dir + "/plan.json --graph-out " + dir +
                    "/graph.json").code, 0);
  const std::string graph = " --hardware sortinghat-v100 --graph " + dir + "/graph.json";
  const std::pair<std::string, std::string> cases[] = {
      {plan, "give --scenario S.yaml, or --hardware H and --graph G"},
      {plan + " --hardware sortinghat-v100", "give --scenario S.yaml, or --hardware H and --graph G"},
      {plan + graph + " --scenario " + s, "drop --hardware"},
      {plan + " --scenario " + s + " --weights host", "drop --weights"},
      {plan + graph + " --point 1", "--point needs --scenario"},
      {plan + " --scenario " + s + " --point 2", "--point 2 is out of range"},
      {plan + graph + " --cost magic", "--cost: unknown cost model 'magic' (known: linear, roofline)"},
  };
  for (const auto& [args, expect] : cases) {
    const auto r = run_cli("simulate" + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(expect), std::string::npos) << args << ": " << r.err;
  }
}

TEST(Cli, EditedPlanMissingADeliveryIsBadInput) {
  const std::string dir = temp_dir("plan-bad");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  ASSERT_EQ(run_cli("plan " + s + " --placer single-device -o " + dir + "/plan.json --graph-out " + dir +
                    "/graph.json").code, 0);
  auto plan = nlohmann::json::parse(read_all(dir + "/plan.json"));
  for (auto& q : plan["queues"])
    if (q["name"].get<std::string>().find(".h2d") != std::string::npos) q["tasks"].erase(0);
  std::ofstream(dir + "/plan.json") << plan.dump(1);
  const auto r = run_cli("simulate --hardware sortinghat-v100 --graph " + dir + "/graph.json --plan " + dir +
                         "/plan.json");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("no delivery"), std::string::npos) << r.err;
}

TEST(Cli, CompareRecomputesSpeedupsAgainstAnotherBaseline) {
  const std::string dir = temp_dir("compare");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto rj = nlohmann::json::parse(run.out);
  const auto c = run_cli("compare " + dir + "/r.h5 --baseline round-robin --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto cj = nlohmann::json::parse(c.out);
  // Point 0: speed-up of single-device over round-robin = rr makespan / single makespan.
  const double single = rj["runs"][0]["makespan_s"], rr = rj["runs"][1]["makespan_s"];
  EXPECT_DOUBLE_EQ(cj["points"][0]["placers"]["single-device"]["speedup"].get<double>(), rr / single);
  EXPECT_DOUBLE_EQ(cj["points"][0]["placers"]["round-robin"]["speedup"].get<double>(), 1.0);
  EXPECT_TRUE(cj["points"][0]["placers"]["critical-path"]["speedup"].is_null());
  // Geometric mean over the two points, by hand.
  const double g = std::sqrt((rj["runs"][1]["makespan_s"].get<double>() / rj["runs"][0]["makespan_s"].get<double>()) *
                             (rj["runs"][4]["makespan_s"].get<double>() / rj["runs"][3]["makespan_s"].get<double>()));
  EXPECT_NEAR(cj["geomean_speedup"]["single-device"].get<double>(), g, 1e-12);
  EXPECT_EQ(run_cli("compare " + dir + "/r.h5 --baseline nobody").code, 2);
  EXPECT_EQ(run_cli("compare " + dir + "/s.yaml").code, 2);
}

// Every simulated run carries its communication volume in --json, the results file and compare
// (total and inter-node in the table; the whole of it in compare --json); a bound has none.
TEST(Cli, RunAndCompareCarryCommBytes) {
  const std::string dir = temp_dir("comm");
  const std::string s = write_file(dir, "s.yaml", kSmall);
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto rj = nlohmann::json::parse(run.out);
  for (const auto& r : rj["runs"]) {
    SCOPED_TRACE(r["placer"].get<std::string>());
    if (r["placer"] == "critical-path") {
      EXPECT_TRUE(r["comm_bytes"].is_null());
      continue;
    }
    const auto& c = r["comm_bytes"];
    ASSERT_TRUE(c.is_object()) << r.dump();
    EXPECT_EQ(c["inter_node"].get<double>(), 0.0);  // one machine
    EXPECT_EQ(c["per_gpu"].size(), 4u);
    double kinds = 0;
    for (const auto& [kind, bytes] : c["by_kind"].items()) kinds += bytes.get<double>();
    EXPECT_NEAR(kinds, c["total"].get<double>(), 1e-9 * c["total"].get<double>());
  }
  // round-robin spreads the layers over the GPUs: activations cross between them.
  EXPECT_GT(rj["runs"][1]["comm_bytes"]["by_kind"]["activation"].get<double>(), 0);
  const auto cj = run_cli("compare " + dir + "/r.h5 --json");
  ASSERT_EQ(cj.code, 0) << cj.err;
  const auto compared = nlohmann::json::parse(cj.out);
  EXPECT_EQ(compared["points"][1]["placers"]["round-robin"]["comm_bytes"], rj["runs"][4]["comm_bytes"]);
  const auto table = run_cli("compare " + dir + "/r.h5");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("bytes sent between devices per point: total (inter-node)"), std::string::npos) << table.out;
}

// A whole generation carries TTFT, TPOT and its stride in --json, the results file and compare
// (--metric ttft | tpot); its makespan is the end-to-end latency. `plan` places one step.
TEST(Cli, GenerationReportsTtftAndTpotEverywhere) {
  const std::string dir = temp_dir("generation");
  const std::string s = write_file(dir, "s.yaml",
                              "hardware: sortinghat-v100\n"
                              "model: {generator: transformer, arch: gpt2-large, layers: 2, seq: 32, phase: generate,"
                              " output: 8, kv_stride: 2}\n"
                              "placers: [single-device, round-robin]\nbaseline: single-device\n");
  const auto run = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(run.code, 0) << run.err;
  const auto rj = nlohmann::json::parse(run.out);
  for (const auto& r : rj["runs"]) {
    SCOPED_TRACE(r.dump());
    ASSERT_EQ(r["status"], "ok");
    const double ttft = r["ttft_s"], tpot = r["tpot_s"], e2e = r["makespan_s"];
    EXPECT_NEAR(e2e, ttft + 7 * tpot, 1e-12 * e2e);
    EXPECT_EQ(r["generation"]["input_tokens"], 32);
    EXPECT_EQ(r["generation"]["output_tokens"], 8);
    EXPECT_EQ(r["generation"]["kv_stride"], 2);
    EXPECT_EQ(r["generation"]["decode_steps"], 7);
    EXPECT_EQ(r["generation"]["simulated_decode_steps"], 4);  // kv 34, 36, 38 and the last, 39
  }
  for (const char* metric : {"ttft", "tpot"}) {
    const auto c = run_cli("compare " + dir + "/r.h5 --json --metric " + metric);
    ASSERT_EQ(c.code, 0) << c.err;
    const auto cj = nlohmann::json::parse(c.out);
    EXPECT_EQ(cj["metric"], metric);
    EXPECT_EQ(cj["points"][0]["placers"]["round-robin"]["value_s"], rj["runs"][1][std::string(metric) + "_s"]);
  }
  const auto table = run_cli("run " + s + " -o " + dir + "/t.h5");
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("TTFT"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("over 7 decode steps (kv_stride 2)"), std::string::npos) << table.out;

  const auto plan = run_cli("plan " + s + " --placer single-device -o " + dir + "/p.json");
  EXPECT_EQ(plan.code, 2);
  EXPECT_NE(plan.err.find("s.yaml:2:78: phase generate is a whole generation"), std::string::npos) << plan.err;
}

}  // namespace
