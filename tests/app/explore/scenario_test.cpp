// Sweep expansion: the cartesian product in file order (first axis outermost), tuple axes that
// set several keys, zipped axes that advance together, and errors at their location.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"
#include "hw/topology_yaml.hpp"
#include "sim/core/error.hpp"
#include "app/explore/scenario.hpp"

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

// Points on the same machine share one loaded topology, in whatever order they ask for it;
// points on another get their own, each what loading its hardware alone gives.
TEST(Sweep, PointsOnOneMachineShareItsTopology) {
  const auto s = explore::load_scenario(scenario_file(
      "sweep:\n  hardware: [sortinghat-v100, sortinghat-a6000]\n  model.batch: [1, 2, 4]\n"));
  ASSERT_EQ(s.points.size(), 6u);
  std::vector<std::shared_ptr<const hw::Topology>> topo;
  for (int i : {0, 3, 1, 4, 2, 5}) topo.push_back(explore::build_problem(s, s.points[i]).topo);
  EXPECT_EQ(topo[0], topo[2]);  // points 0 and 1: the V100 server
  EXPECT_EQ(topo[0], topo[4]);
  EXPECT_EQ(topo[1], topo[3]);  // points 3 and 4: the A6000 server
  EXPECT_EQ(topo[1], topo[5]);
  EXPECT_NE(topo[0], topo[1]);
  auto preset = [](const std::string& name) { return hw::load_topology_text(hw::preset_text(name), "preset:" + name); };
  EXPECT_EQ(topo[0]->name, preset("sortinghat-v100").name);
  EXPECT_EQ(topo[0]->devices.size(), preset("sortinghat-v100").devices.size());
  EXPECT_EQ(topo[1]->name, preset("sortinghat-a6000").name);
  EXPECT_EQ(topo[1]->devices.size(), preset("sortinghat-a6000").devices.size());
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

// A point shares the scenario's nodes but for the maps on the way to the keys its axes set, which
// it copies; each copy is located where the file has the map it copies. The columns are counted
// in scenario_file's text: line 3 is `model: {generator: transformer, arch: gpt2-large, ...}`
// (the map at column 8, gpt2-large at 39), line 6 `  model.batch: [1, 4]` (4 at column 20).
TEST(Sweep, PointsKeepTheFilesLocations) {
  const std::string file = scenario_file("sweep:\n  model.batch: [1, 4]\n");
  const auto s = explore::load_scenario(file);
  ASSERT_EQ(s.points.size(), 2u);
  const Yaml p1 = explore::point_yaml(s, s.points[1]);
  EXPECT_EQ(p1.loc().str(), file + ":1:1");
  EXPECT_EQ(p1.at("model").loc().str(), file + ":3:8");
  EXPECT_EQ(p1.at("model").at("arch").loc().str(), file + ":3:39");
  EXPECT_EQ(p1.at("model").at("batch").loc().str(), file + ":6:20");  // the axis's value
  EXPECT_EQ(p1.at("model").at("batch").integer(), 4);
  EXPECT_EQ(explore::point_yaml(s, s.points[0]).at("model").at("batch").integer(), 1);
  // No point wrote into the scenario's own model.
  EXPECT_FALSE(s.root.at("model").has("batch"));
  EXPECT_NE(s.text.find("model: {generator: transformer, arch: gpt2-large, layers: 1}"), std::string::npos) << s.text;
}

// Maps within maps: a point copies each map on the way (line 2 below: the hardware map at
// column 11, its nodes map at 41, gpus' value at 58); the scenario keeps count 1.
TEST(Sweep, NestedKeysCopyEveryMapOnTheWay) {
  const std::string dir = placesim::testing::temp_dir("scenario-nested");
  const std::string file = placesim::testing::write_file(
      dir, "s.yaml",
      "name: n\nhardware: {generator: asymgroup, nodes: {count: 1, gpus: 1}}\n"
      "model: {generator: transformer, arch: gpt2-large, layers: 1}\nplacers: [single-device]\n"
      "sweep:\n  hardware.nodes.count: [1, 2]\n");
  const auto s = explore::load_scenario(file);
  ASSERT_EQ(s.points.size(), 2u);
  const Yaml hw = explore::point_yaml(s, s.points[1]).at("hardware");
  EXPECT_EQ(hw.loc().str(), file + ":2:11");
  EXPECT_EQ(hw.at("nodes").loc().str(), file + ":2:41");
  EXPECT_EQ(hw.at("nodes").at("gpus").loc().str(), file + ":2:58");
  EXPECT_EQ(hw.at("nodes").at("count").integer(), 2);
  EXPECT_EQ(explore::point_yaml(s, s.points[0]).at("hardware").at("nodes").at("count").integer(), 1);
  EXPECT_EQ(s.root.at("hardware").at("nodes").at("count").integer(), 1);
}

// A map a --set gave, copied by a point, is still named by that --set.
TEST(Sweep, APointsCopyOfASetValueIsNamedByTheSet) {
  const std::string set = "model={generator: transformer, arch: gpt2-xl, layers: 1}";
  const auto s = explore::load_scenario(scenario_file("sweep:\n  model.batch: [1, 4]\n"), {set});
  const Yaml model = explore::point_yaml(s, s.points[1]).at("model");
  EXPECT_EQ(model.loc().str(), "--set " + set);
  EXPECT_EQ(model.at("arch").str(), "gpt2-xl");
  EXPECT_EQ(model.at("batch").integer(), 4);
}

// A swept hardware file is relative to the scenario's directory, like the file's own, and
// located at the axis's value (line 6 below, column 31).
TEST(Sweep, ASweptRelativePathIsTheScenarioDirectorysAndLocatedAtTheAxis) {
  const std::string dir = placesim::testing::temp_dir("scenario-paths");
  placesim::testing::write_file(dir, "hw.yaml", hw::preset_text("sortinghat-v100"));
  const std::string file = placesim::testing::write_file(
      dir, "s.yaml",
      "name: s\nhardware: sortinghat-v100\nmodel: {generator: transformer, arch: gpt2-large, layers: 1}\n"
      "placers: [single-device]\nsweep:\n  hardware: [sortinghat-v100, hw.yaml]\n");
  const auto s = explore::load_scenario(file);
  ASSERT_EQ(s.points.size(), 2u);
  const Yaml hw = explore::point_yaml(s, s.points[1]).at("hardware");
  EXPECT_EQ(hw.str(), (std::filesystem::path(dir) / "hw.yaml").lexically_normal().string());
  EXPECT_EQ(hw.loc().str(), file + ":6:31");
  EXPECT_EQ(explore::point_yaml(s, s.points[0]).at("hardware").str(), "sortinghat-v100");
}

TEST(Sweep, SetOverridesApplyBeforeExpansion) {
  const auto s = explore::load_scenario(scenario_file("sweep:\n  model.seq: [32, 64]\n"),
                                        {"model.batch=8", "sweep.model.seq=[1, 2, 3]"});
  ASSERT_EQ(s.points.size(), 3u);
  EXPECT_EQ(s.points[2].root["model"]["batch"].as<int>(), 8);
  EXPECT_THROW(explore::load_scenario(scenario_file(""), {"no-equals-sign"}), InputError);
}

}  // namespace
