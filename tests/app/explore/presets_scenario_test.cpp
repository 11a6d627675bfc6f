// A quickstart-style scenario (a two-layer GPT-2 large, prefill, weights in host memory; placers
// single-device, round-robin and the critical-path bound) runs on every built-in preset, and a
// CPU-only single-device scenario runs on the file `placesim discover` writes for this machine.
// "Runs" means every placer ends with status ok and a positive time, and the simulated
// placers are never faster than the bound.
#include <fstream>
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"
#include "hw/discover/discover.hpp"
#include "hw/topology_yaml.hpp"
#include "app/explore/runner.hpp"

namespace {

using namespace placesim;

explore::RunSet run(const std::string& tag, const std::string& hardware, const std::string& placers) {
  const std::string dir = placesim::testing::temp_dir("presets-" + tag);
  const std::string path = dir + "/s.yaml";
  std::ofstream(path) << "name: " << tag << "\nhardware: " << hardware
                      << "\nmodel: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, "
                         "phase: prefill, dtype: fp16}\n"
                         "weights: host\nplacers: "
                      << placers << "\n";
  return explore::run_scenario(explore::load_scenario(path), explore::RunOptions{});
}

class EveryPreset : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryPreset, QuickstartScenarioRuns) {
  const explore::RunSet set = run(GetParam(), GetParam(), "[single-device, round-robin, critical-path]");
  ASSERT_EQ(set.runs.size(), 3u);
  double bound = 0;
  for (const explore::RunResult& r : set.runs) {
    EXPECT_EQ(r.status, scheduler::RunStatus::Ok) << r.placer << ": " << r.message;
    if (r.placer == "critical-path") bound = r.predicted_s.value_or(0);
  }
  EXPECT_GT(bound, 0);
  for (const explore::RunResult& r : set.runs) {
    if (r.placer == "critical-path") continue;
    ASSERT_TRUE(r.makespan_s.has_value()) << r.placer;
    EXPECT_GE(*r.makespan_s, bound * (1 - 1e-9)) << r.placer;
  }
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const hw::PresetInfo& p : hw::list_presets()) names.push_back(p.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Presets, EveryPreset, ::testing::ValuesIn(preset_names()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

TEST(DiscoveredMachine, CpuOnlySingleDeviceScenarioRuns) {
  const std::string dir = placesim::testing::temp_dir("discovered");
  const std::string hw_path = dir + "/local.yaml";
  std::ofstream(hw_path) << hw::discover_machine({}).yaml;
  const explore::RunSet set = run("discovered", hw_path, "[single-device]");
  ASSERT_EQ(set.runs.size(), 1u);
  EXPECT_EQ(set.runs[0].status, scheduler::RunStatus::Ok) << set.runs[0].message;
  EXPECT_GT(set.runs[0].makespan_s.value_or(0), 0);
}

}  // namespace
