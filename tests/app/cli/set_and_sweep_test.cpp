// --set against the sweep (a swept key's --set replaces its axis; an error in a --set value names
// that --set), run --dry-run's list of points, --timing with tables, list presets NAME, and bad
// sweeps refused before any work.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;

const std::string kSrc = PLACESIM_SOURCE_DIR;

using placesim::testing::write_file;

const std::string kHead =
    "hardware: sortinghat-v100\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, phase: prefill}\n"
    "placers: [single-device, heft]\n";

// A run with overrides writes results/<name>@<overrides>.h5 beside the scenario's own results
// (@set-<hash> where the overrides hold spaces or brackets), and compare labels the files of one
// scenario by their overrides, where it used to give both the same name and then their paths.
TEST(SetAndSweep, ARunWithOverridesKeepsTheScenariosOwnResults) {
  const std::string dir = temp_dir("set-path");
  write_file(dir, "s.yaml", "name: s\n" + kHead);
  auto in_dir = [&](const std::string& args) {
    return placesim::testing::run_command("cd " + dir + " && " + PLACESIM_BINARY + " " + args);
  };
  for (const std::string args : {"run s.yaml", "run s.yaml --set model.seq=16", "run s.yaml --set 'placers=[heft]'"}) {
    const auto r = in_dir(args);
    ASSERT_EQ(r.code, 0) << args << ": " << r.err;
  }
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir + "/results")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], "s.h5");
  EXPECT_EQ(files[1], "s@model.seq=16.h5");
  EXPECT_EQ(files[2].substr(0, 6), "s@set-");
  EXPECT_EQ(files[2].size(), std::string("s@set-01234567.h5").size()) << files[2];

  const auto c = in_dir("compare results/s.h5 results/s@model.seq=16.h5 --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["scenario"], "s, s --set model.seq=16");
  EXPECT_NE(j["points"][0]["placers"]["heft"]["value_s"], j["points"][1]["placers"]["heft"]["value_s"]);
}

// The swept scenario with --set model.seq=16 runs one point, the same as a scenario that gives
// seq 16 and no sweep.
TEST(SetAndSweep, SetOnASweptKeyReplacesItsAxis) {
  const std::string dir = temp_dir("set-axis");
  const std::string swept = write_file(dir, "swept.yaml", kHead + "sweep:\n  model.seq: [32, 64]\n  model.batch: [1, 2]\n");
  const std::string fixed = write_file(dir, "fixed.yaml",
                                  "hardware: sortinghat-v100\n"
                                  "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 16, "
                                  "phase: prefill}\nplacers: [single-device, heft]\nsweep:\n  model.batch: [1, 2]\n");
  const auto dry = run_cli("run " + swept + " --set model.seq=16 --dry-run --json");
  ASSERT_EQ(dry.code, 0) << dry.err;
  const auto points = nlohmann::json::parse(dry.out)["points"];
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[1], (nlohmann::json{{"index", 1}, {"point", {{"model.batch", 2}}}}));

  const auto a = run_cli("run " + swept + " --set model.seq=16 --json -o " + dir + "/a.h5");
  const auto b = run_cli("run " + fixed + " --json -o " + dir + "/b.h5");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  const auto ja = nlohmann::json::parse(a.out)["runs"], jb = nlohmann::json::parse(b.out)["runs"];
  ASSERT_EQ(ja.size(), 4u);
  for (size_t i = 0; i < ja.size(); ++i) EXPECT_EQ(ja[i]["makespan_s"], jb[i]["makespan_s"]) << i;
}

TEST(SetAndSweep, SetOnPartOfAJointAxisIsAnErrorNamingIt) {
  const std::string dir = temp_dir("set-joint");
  const std::string s = write_file(dir, "s.yaml", kHead + "sweep:\n  model.[batch,seq]: [[1, 32], [2, 64]]\n");
  const auto r = run_cli("run " + s + " --set model.seq=16 -o " + dir + "/x.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("--set model.seq=16: 'model.seq' is swept together with other keys by axis 'model.[batch,seq]'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/x.h5"));
  // The whole axis, set by its label, goes, and each of its keys takes its value: the runs are
  // those of the scenario with batch 2 and seq 16 and no sweep.
  const auto whole = run_cli("run " + s + " --set 'model.[batch,seq]=[2, 16]' --json -o " + dir + "/w.h5");
  const std::string fixed = write_file(dir, "fixed.yaml", kHead);
  const auto same = run_cli("run " + fixed + " --set model.batch=2 --set model.seq=16 --json -o " + dir + "/f.h5");
  ASSERT_EQ(whole.code, 0) << whole.err;
  ASSERT_EQ(same.code, 0) << same.err;
  const auto jw = nlohmann::json::parse(whole.out)["runs"], jf = nlohmann::json::parse(same.out)["runs"];
  ASSERT_EQ(jw.size(), 2u);
  for (size_t i = 0; i < jw.size(); ++i) EXPECT_EQ(jw[i]["makespan_s"], jf[i]["makespan_s"]) << i;
}

TEST(SetAndSweep, ABadSetValueIsBlamedOnTheSet) {
  const std::string dir = temp_dir("set-bad");
  const std::string s = write_file(dir, "s.yaml", kHead);
  const auto r = run_cli("run " + s + " --set model.batch=-1 -o " + dir + "/x.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("placesim: error: --set model.batch=-1: expected a positive integer"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/x.h5"));
  const auto w = run_cli("run " + s + " --set weights=sideways -o " + dir + "/x.h5");
  EXPECT_EQ(w.code, 2) << w.err;
  EXPECT_NE(w.err.find("placesim: error: --set weights=sideways: "), std::string::npos) << w.err;
}

TEST(SetAndSweep, DryRunListsThePointsPlanTakes) {
  const std::string dir = temp_dir("dry");
  const std::string s = write_file(dir, "s.yaml", kHead + "baseline: single-device\nsweep:\n  model.seq: [32, 64]\n");
  const auto r = run_cli("run " + s + " --dry-run -o " + dir + "/x.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("    0  model.seq=32\n    1  model.seq=64\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  single-device  (baseline)\n  heft\n"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir + "/x.h5")) << "a dry run writes nothing";
}

TEST(SetAndSweep, TimingWorksWithTables) {
  const std::string dir = temp_dir("timing");
  const std::string s = write_file(dir, "s.yaml", kHead);
  const auto r = run_cli("run " + s + " --timing -o " + dir + "/x.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t at = r.out.find("placement time per point (wall clock");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("single-device", at), std::string::npos) << r.out;
}

TEST(SetAndSweep, ListPresetsNamePrintsThePresetsFile) {
  const auto r = run_cli("list presets sortinghat-v100");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, read_all(kSrc + "/hw/presets/sortinghat-v100.yaml"));
  const auto bad = run_cli("list presets no-such-box");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("unknown preset 'no-such-box'"), std::string::npos) << bad.err;
}

struct BadSweep {
  const char* what;
  std::string sweep;
  std::string expect;
};

TEST(SetAndSweep, BadSweepsAreRefusedBeforeAnyWork) {
  const std::string dir = temp_dir("bad-sweep");
  const std::vector<BadSweep> cases = {
      {"an axis naming no scenario key", "sweep: {hardwear: [dgx-a100]}\n",
       "s.yaml:5:19: sweep axis 'hardwear' sets 'hardwear', and a scenario has no key 'hardwear'"},
      {"an axis naming no key of the model", "sweep: {model.btach: [1, 2]}\n",
       "s.yaml:5:22: sweep axis 'model.btach' sets 'model.btach', and model takes no key 'btach'"},
      {"an axis naming no key of the cost model", "sweep: {cost.threads: [1, 2]}\n",
       "s.yaml:5:23: sweep axis 'cost.threads' sets 'cost.threads', and cost takes no key 'threads'"},
      {"an empty axis", "sweep: {model.seq: []}\n", "s.yaml:5:20: sweep axis 'model.seq' needs a non-empty list"},
      {"a zip of unequal lengths", "sweep: {zip: {model.seq: [32, 64], model.batch: [1]}}\n",
       "s.yaml:5:49: zipped axes need equal lengths: 'model.batch' has 1, 'model.seq' has 2"},
  };
  for (const BadSweep& c : cases) {
    const std::string s = write_file(dir, "s.yaml", kHead + "cost: {name: roofline}\n" + c.sweep);
    const auto r = run_cli("run " + s + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.code, 2) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.what << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir + "/x.h5")) << c.what;
  }
}

}  // namespace

namespace {

// One rule: a relative path is taken from the directory of the file that names it, and a path
// on the command line (--set) from the working directory. A hardware file sitting in the
// working directory is not found through a scenario elsewhere that names it.
TEST(SetAndSweep, RelativePathsAreTakenFromTheFileThatNamesThem) {
  const std::string dir = temp_dir("relative-paths");
  fs::create_directories(dir + "/sc");
  fs::create_directories(dir + "/cwd");
  const std::string hw = read_all(kSrc + "/hw/presets/sortinghat-v100.yaml");
  write_file(dir + "/sc", "beside.yaml", hw);
  write_file(dir + "/cwd", "here.yaml", hw);
  const std::string model = "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 32, phase: prefill}\n"
                            "placers: [single-device]\n";
  write_file(dir + "/sc", "named.yaml", "hardware: beside.yaml\n" + model);
  write_file(dir + "/sc", "swept.yaml", "hardware: beside.yaml\n" + model + "sweep:\n  hardware: [beside.yaml, sortinghat-a6000]\n");
  write_file(dir + "/sc", "elsewhere.yaml", "hardware: here.yaml\n" + model);
  auto in_cwd = [&](const std::string& args) {
    return placesim::testing::run_command("cd " + dir + "/cwd && " + PLACESIM_BINARY + " " + args);
  };
  EXPECT_EQ(in_cwd("run ../sc/named.yaml -o r1.h5").code, 0);
  EXPECT_EQ(in_cwd("run ../sc/swept.yaml -o r2.h5").code, 0);
  const auto missing = in_cwd("run ../sc/elsewhere.yaml -o r3.h5");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("elsewhere.yaml:1:11: "), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("sc/here.yaml"), std::string::npos) << missing.err;
  // The same file named on the command line is the working directory's.
  EXPECT_EQ(in_cwd("run ../sc/elsewhere.yaml --set hardware=here.yaml -o r4.h5").code, 0);
  EXPECT_EQ(in_cwd("run ../sc/named.yaml --set hardware=beside.yaml -o r5.h5").code, 2);
  // A model's Hugging Face config follows the same rule.
  write_file(dir + "/sc", "llama.json", read_all(kSrc + "/models/configs/llama-2-7b.json"));
  write_file(dir + "/sc", "config.yaml",
             "hardware: beside.yaml\nmodel: {config: llama.json, layers: 1, seq: 32}\nplacers: [single-device]\n");
  EXPECT_EQ(in_cwd("run ../sc/config.yaml --dry-run").code, 0);
  EXPECT_EQ(in_cwd("run ../sc/config.yaml --set model.config=../sc/llama.json --dry-run").code, 0);
  const auto no_config = in_cwd("run ../sc/config.yaml --set model.config=llama.json --dry-run");
  EXPECT_EQ(no_config.code, 2);
  EXPECT_NE(no_config.err.find("no config file 'llama.json'"), std::string::npos) << no_config.err;
}

}  // namespace
