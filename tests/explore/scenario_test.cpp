// Sweep expansion: the cartesian product in file order (first axis outermost), tuple axes that
// set several keys, zipped axes that advance together, and errors at their location.
#include <fstream>
#include <gtest/gtest.h>

#include "../support/run_cli.hpp"
#include "sim/core/error.hpp"
#include "sim/explore/scenario.hpp"

namespace {

using namespace placesim;

std::string scenario_file(const std::string& sweep) {
  const std::string dir = placesim::testing::temp_dir("scenario");
  const std::string path = dir + "/s.yaml";
  std::ofstream(path) << "name: s\nhardware: sortinghat-v100\n"
                         "model: {generator: transformer, arch: gpt2-large, layers: 1}\n"
                         "placers: [single-device]\n"
                      << sweep;
  return path;
}

TEST(Sweep, CartesianProductFirstAxisOutermost) {
  const auto s = explore::load_scenario(scenario_file(
      "sweep:\n  model.arch: [gpt2-large, gpt2-xl]\n  model.[batch,seq]: [[1, 32], [4, 128], [8, 16]]\n"));
  ASSERT_EQ(s.points.size(), 6u);
  EXPECT_EQ(s.axes, (std::vector<std::string>{"model.arch", "model.[batch,seq]"}));
  // Point 4 = arch index 1, tuple index 1.
  const auto& p = s.points[4];
  EXPECT_EQ(p.values[0].second, "gpt2-xl");
  EXPECT_EQ(p.values[1].second, "[4, 128]");
  EXPECT_EQ(p.root["model"]["arch"].as<std::string>(), "gpt2-xl");
  EXPECT_EQ(p.root["model"]["batch"].as<int>(), 4);
  EXPECT_EQ(p.root["model"]["seq"].as<int>(), 128);
  EXPECT_FALSE(p.root["sweep"]);
}

TEST(Sweep, ZippedAxesAdvanceTogether) {
  const auto s = explore::load_scenario(
      scenario_file("sweep:\n  zip: {model.seq: [32, 64, 96], model.batch: [1, 2, 3]}\n  model.phase: [prefill, decode]\n"));
  ASSERT_EQ(s.points.size(), 6u);
  EXPECT_EQ(s.points[3].root["model"]["seq"].as<int>(), 64);
  EXPECT_EQ(s.points[3].root["model"]["batch"].as<int>(), 2);
  EXPECT_EQ(s.points[3].root["model"]["phase"].as<std::string>(), "decode");
}

TEST(Sweep, NoSweepIsOnePoint) {
  const auto s = explore::load_scenario(scenario_file(""));
  ASSERT_EQ(s.points.size(), 1u);
  EXPECT_TRUE(s.points[0].values.empty());
}

TEST(Sweep, ErrorsNameTheirLocation) {
  try {
    explore::load_scenario(scenario_file("sweep:\n  zip: {model.seq: [32, 64], model.batch: [1]}\n"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.yaml:6:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("equal lengths"), std::string::npos) << e.what();
  }
  try {
    explore::load_scenario(scenario_file("sweep:\n  model.[batch,seq]: [[1, 32], [4]]\n"));
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("s.yaml:6:"), std::string::npos) << e.what();
  }
}

TEST(Sweep, SetOverridesApplyBeforeExpansion) {
  const auto s = explore::load_scenario(scenario_file("sweep:\n  model.seq: [32, 64]\n"),
                                        {"model.batch=8", "sweep.model.seq=[1, 2, 3]"});
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[2].root["model"]["batch"].as<int>(), 8);
  EXPECT_THROW(explore::load_scenario(scenario_file(""), {"no-equals-sign"}), InputError);
}

}  // namespace
