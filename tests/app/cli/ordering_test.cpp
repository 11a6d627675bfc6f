// Results do not depend on how the inputs happen to be written down: the hardware file's devices
// and links listed in another order, or its GPUs renamed along a symmetry of the machine, give
// every placer the same makespans; a plan simulates the same on a reordered hardware file and a
// graph file with its nodes and edges in another order; and a sweep's traces are the same bytes
// with one worker thread or two.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "tests/support/run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;
using placesim::testing::write_file;

std::string preset_text(const std::string& name) {
  const auto r = run_cli("list presets " + name);
  EXPECT_EQ(r.code, 0) << r.err;
  return r.out;
}

// The hardware text with its devices and links in reverse order.
std::string reversed(const std::string& hardware) {
  YAML::Node doc = YAML::Load(hardware);
  for (const char* key : {"devices", "links"}) {
    YAML::Node rev(YAML::NodeType::Sequence);
    for (size_t i = doc[key].size(); i-- > 0;) rev.push_back(doc[key][i]);
    doc[key] = rev;
  }
  YAML::Emitter out;
  out << doc;
  return out.c_str();
}

// `text` with the names in each pair swapped.
std::string swapped(std::string text, const std::vector<std::pair<std::string, std::string>>& pairs) {
  for (const auto& [a, b] : pairs) {
    const std::string tmp = "\x01";
    for (auto [from, to] : {std::pair{a, tmp}, std::pair{b, a}, std::pair{tmp, b}})
      for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  }
  return text;
}

// placer -> makespan (simulated, or the bound's prediction) of `run --json`.
std::map<std::string, double> makespans(const std::string& scenario) {
  const auto r = run_cli("run " + scenario + " --json -o " + scenario + ".h5");
  EXPECT_EQ(r.code, 0) << r.err;
  std::map<std::string, double> out;
  if (r.code != 0) return out;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  for (const auto& run : doc.at("runs")) {
    EXPECT_TRUE(run.at("status") == "ok" || run.at("status") == "limit") << run.dump();  // a MILP's node limit
    const auto& m = run.contains("makespan_s") && !run.at("makespan_s").is_null() ? run.at("makespan_s") : run.at("predicted_s");
    out[run.at("placer").get<std::string>()] = m.get<double>();
  }
  return out;
}

const std::string kModel = "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 32, phase: prefill}\n";
const std::string kPlacers =
    "placers: [single-device, round-robin, heft, getf, m-topo, m-etf, m-sct, chrion, deepplan, critical-path,\n"
    "  {name: milp-sortinghat, node_limit: 1, warm: none},\n"
    "  megatron-tp, autoddl-2d, asymgroup]\n";

TEST(Ordering, PlacersGiveTheSameMakespansWhateverTheHardwareFilesOrderAndSymmetricNames) {
  const std::string dir = temp_dir("ordering-hw");
  // The V100 station: gpu0/gpu1 share bus0, gpu2/gpu3 bus1, double NVLinks gpu0-gpu3 and
  // gpu1-gpu2. Swapping gpu0<->gpu3 and gpu1<->gpu2 (and the buses) maps the machine onto itself.
  const std::string v100 = preset_text("sortinghat-v100");
  const std::string hetero = preset_text("sortinghat-v100-hetero");
  const std::vector<std::pair<std::string, std::string>> symmetry = {{"gpu0", "gpu3"}, {"gpu1", "gpu2"}, {"bus0", "bus1"}};
  for (const auto& [name, variants] :
       {std::pair{std::string("sortinghat-v100"), std::vector<std::string>{v100, reversed(v100), swapped(v100, symmetry)}},
        std::pair{std::string("sortinghat-v100-hetero"), std::vector<std::string>{hetero, reversed(hetero)}}}) {
    SCOPED_TRACE(name);
    std::vector<std::map<std::string, double>> got;
    for (size_t v = 0; v < variants.size(); ++v) {
      const std::string hw = write_file(dir, name + std::to_string(v) + ".yaml", variants[v]);
      got.push_back(makespans(write_file(dir, name + std::to_string(v) + "-s.yaml",
                                         "hardware: " + hw + "\n" + kModel + "weights: host\n" + kPlacers)));
    }
    ASSERT_EQ(got[0].size(), 14u);
    for (size_t v = 1; v < got.size(); ++v) EXPECT_EQ(got[v], got[0]) << "variant " << v;
  }
}

TEST(Ordering, APlanSimulatesTheSameOnReorderedHardwareAndGraphFiles) {
  const std::string dir = temp_dir("ordering-sim");
  const std::string hw = write_file(dir, "hw.yaml", preset_text("sortinghat-v100"));
  const std::string hw_rev = write_file(dir, "hw-rev.yaml", reversed(read_all(hw)));
  const std::string scenario = write_file(dir, "s.yaml", "hardware: " + hw + "\n" + kModel + "weights: host\n" + kPlacers);
  for (const std::string placer : {"heft", "deepplan", "megatron-tp", "m-etf"}) {
    SCOPED_TRACE(placer);
    const std::string plan = dir + "/" + placer + ".json", graph = dir + "/" + placer + "-g.json";
    const auto made = run_cli("plan " + scenario + " --placer " + placer + " -o " + plan + " --graph-out " + graph);
    ASSERT_EQ(made.code, 0) << made.err;
    nlohmann::json g = nlohmann::json::parse(read_all(graph));
    for (const char* key : {"nodes", "edges"}) std::reverse(g.at(key).begin(), g.at(key).end());
    const std::string graph_rev = write_file(dir, placer + "-g-rev.json", g.dump(1));
    auto simulated = [&](const std::string& h, const std::string& gr) {
      const auto r = run_cli("simulate --hardware " + h + " --graph " + gr + " --plan " + plan + " --json");
      EXPECT_EQ(r.code, 0) << r.err;
      return r.code == 0 ? nlohmann::json::parse(r.out).at("makespan_s").get<double>() : -1.0;
    };
    const double base = simulated(hw, graph);
    EXPECT_GT(base, 0);
    EXPECT_EQ(simulated(hw_rev, graph), base);
    EXPECT_EQ(simulated(hw, graph_rev), base);
    EXPECT_EQ(simulated(hw_rev, graph_rev), base);
  }
}

TEST(Ordering, ASweepsTracesAreTheSameBytesWithOneThreadOrTwo) {
  const std::string dir = temp_dir("ordering-traces");
  const std::string scenario =
      write_file(dir, "s.yaml",
                 "hardware: sortinghat-v100\n" + kModel +
                     "weights: host\nplacers: [single-device, heft, deepplan, megatron-tp]\nsweep:\n  model.seq: [32, 64, 128]\n");
  for (const char* j : {"1", "2"}) {
    const auto r = run_cli("run " + scenario + " -j " + j + " --trace " + dir + "/j" + j + " -o " + dir + "/j" + j + ".h5");
    ASSERT_EQ(r.code, 0) << r.err;
  }
  size_t traces = 0;
  for (const auto& e : fs::directory_iterator(dir + "/j1")) {
    const fs::path other = fs::path(dir) / "j2" / e.path().filename();
    ASSERT_TRUE(fs::exists(other)) << other;
    EXPECT_EQ(read_all(e.path().string()), read_all(other.string())) << e.path().filename();
    ++traces;
  }
  EXPECT_EQ(traces, 12u);
}

}  // namespace
