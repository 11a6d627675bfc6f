// Placers declare what they need (weights: resident, a GPU, a CPU, a transformer at op
// granularity); `list placers` shows it, and a scenario that gives a placer a point without it
// is one error at the placer's line before any work: exit 2, nothing written.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;

using placesim::testing::write_file;

// A machine with a CPU and its memory, and no GPU.
const char* kCpuOnly =
    "hardware: {devices: [{id: h, type: host_memory, memory: 64GiB}, {id: c, type: cpu, cores: 8, "
    "memory_bw: 50GB/s, fp32: 1TFLOPS}], links: [{a: h, b: c, bw: 50GB/s}]}\n";

struct NeedCase {
  const char* what;
  std::string scenario;
  std::string expect;  // the location (the placer's entry) and what it says
  std::string where = "";  // where the point says what the placer cannot use (after its path)
};

TEST(PlacerNeeds, AMismatchIsAnErrorAtThePlacersLineBeforeAnyWork) {
  const std::string dir = temp_dir("needs");
  const std::string model = "model: {generator: transformer, arch: gpt2-large, layers: 1, seq: 32}\n";
  const std::vector<NeedCase> cases = {
      {"MOIRAI with weights in host memory",
       "hardware: sortinghat-v100\n" + model + "weights: host\nplacers:\n  - heft\n  - milp-moirai\n",
       "s.yaml:6:5: placer 'milp-moirai' needs weights: resident (it models no parameter copies), but weights is "
       "host (", "s.yaml:3:10)"},
      {"MOIRAI with the default weights",
       "hardware: sortinghat-v100\n" + model + "placers: [milp-moirai]\n",
       "s.yaml:3:11: placer 'milp-moirai' needs weights: resident (it models no parameter copies), but weights is "
       "host (the default)"},
      {"MOIRAI at one swept point",
       "hardware: sortinghat-v100\n" + model + "weights: resident\nplacers: [milp-moirai]\n"
       "sweep: {weights: [resident, host]}\n",
       "s.yaml:4:11: placer 'milp-moirai' needs weights: resident (it models no parameter copies), but weights is "
       "host at point 1 (weights=host) (", "s.yaml:5:29)"},
      {"Chrion without a GPU", kCpuOnly + model + "placers: [heft, chrion]\n",
       "s.yaml:3:17: placer 'chrion' needs a GPU, but hardware"},
      {"ScheInfer without a GPU", kCpuOnly + model + "placers: [scheinfer]\n",
       "s.yaml:3:11: placer 'scheinfer' needs a GPU and a CPU, but hardware"},
      {"Megatron at layer granularity",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, granularity: layer}\n"
       "placers: [megatron-tp]\n",
       "s.yaml:3:11: placer 'megatron-tp' needs a transformer model at op granularity, but the model is granularity "
       "layer (", "s.yaml:2:64)"},
      {"AsymGroup on a mixture of experts",
       "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: mixtral-8x7b, layers: 1}\n"
       "placers: [asymgroup]\n",
       "s.yaml:3:11: placer 'asymgroup' needs a dense transformer, but arch mixtral-8x7b has 8 experts (",
       "s.yaml:2:39)"},
      {"AutoDDL on another workload",
       "hardware: sortinghat-v100\nmodel: {generator: lstm}\nplacers: [autoddl-2d]\n",
       "s.yaml:3:11: placer 'autoddl-2d' needs a transformer model at op granularity, but the model is generator lstm "
       "(", "s.yaml:2:20)"},
  };
  for (const NeedCase& c : cases) {
    const std::string s = write_file(dir, "s.yaml", c.scenario);
    const std::string out = dir + "/should-not-exist.h5";
    const auto r = run_cli("run " + s + " -o " + out);
    EXPECT_EQ(r.code, 2) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.where), std::string::npos) << c.what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.what << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.what;
  }
}

// `plan --placer` may name a placer the scenario does not list: it is checked the same way.
TEST(PlacerNeeds, PlanChecksAPlacerTheScenarioDoesNotList) {
  const std::string dir = temp_dir("needs-plan");
  const std::string s = write_file(dir, "s.yaml",
                              "hardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, layers: 1}\n"
                              "placers: [heft]\n");
  const auto r = run_cli("plan " + s + " --placer milp-moirai -o " + dir + "/plan.json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--placer: placer 'milp-moirai' needs weights: resident"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/plan.json"));
}

TEST(PlacerNeeds, ListPlacersShowsThem) {
  const auto j = run_cli("list placers --json");
  ASSERT_EQ(j.code, 0) << j.err;
  std::map<std::string, std::vector<std::string>> needs;
  for (const auto& p : nlohmann::json::parse(j.out)) needs[p["name"]] = p["needs"].get<std::vector<std::string>>();
  EXPECT_EQ(needs["milp-moirai"], std::vector<std::string>{"weights: resident"});
  EXPECT_EQ(needs["chrion"], std::vector<std::string>{"a GPU"});
  EXPECT_EQ(needs["scheinfer"],
            (std::vector<std::string>{"a GPU and a CPU", "a transformer model at op granularity (generator: transformer)"}));
  EXPECT_TRUE(needs["heft"].empty());
  const auto text = run_cli("list placers");
  EXPECT_NE(text.out.find("needs: weights: resident\n"), std::string::npos) << text.out;
}

// The other facts: which bounds hold for a placer's plans, and how they hold weights over a
// generation.
TEST(PlacerNeeds, ListPlacersShowsBoundsAndGenerationWeights) {
  const auto j = run_cli("list placers --json");
  ASSERT_EQ(j.code, 0) << j.err;
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& p : nlohmann::json::parse(j.out)) by_name[p["name"]] = p;
  EXPECT_EQ(by_name["heft"]["bounded_by"], nlohmann::json::array({"critical-path"}));
  EXPECT_EQ(by_name["megatron-tp"]["bounded_by"], nlohmann::json::array());
  EXPECT_EQ(by_name["heft"]["generation_weights"], "loaded once");
  EXPECT_EQ(by_name["fiddler"]["generation_weights"], "every step");
  const auto text = run_cli("list placers");
  EXPECT_NE(text.out.find("not bounded by critical-path: its plans split ops over devices\n"), std::string::npos);
  EXPECT_NE(text.out.find("weights in a generation: every step\n"), std::string::npos);
}

}  // namespace
