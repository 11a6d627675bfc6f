// The pieces a surviving sweep is made of: the results file kept current point by point
// (ResultsFile: point order whatever the finishing order, --resume's refusal of another
// scenario), the typed axis columns, the CSV export, the runs' wire form between MPI ranks,
// and the provenance every results file carries.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/run_cli.hpp"
#include "sim/core/error.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/results_csv.hpp"
#include "app/explore/results_file.hpp"
#include "app/explore/results_h5.hpp"
#include "app/explore/run_result_wire.hpp"
#include "app/explore/validate_h5.hpp"

namespace placesim::explore {
namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::temp_dir;

RunSet header() {
  RunSet h;
  h.scenario = "sweep";
  h.scenario_text = "name: sweep\nsweep: {model.seq: [32, 64, 128]}\n";
  h.hardware_text = "devices: []\n";
  h.baseline = "a";
  h.axes = {"model.seq", "model.arch"};
  h.axis_numeric = {true, false};
  h.command = "placesim run s.yaml -o 'a b.h5'";
  return h;
}

// Point i's runs: placers a and b, makespans i + 1 and (i + 1) / 2.
std::vector<RunResult> point(int i) {
  std::vector<RunResult> runs(2);
  for (int k = 0; k < 2; ++k) {
    runs[k].point_index = i;
    runs[k].point = {{"model.seq", std::to_string(32 << i)}, {"model.arch", "gpt2, \"large\""}};
    runs[k].placer = k == 0 ? "a" : "b";
    runs[k].makespan_s = (i + 1.0) / (k + 1);
    runs[k].speedup = k + 1.0;
    runs[k].seed = 1;
  }
  return runs;
}

std::vector<int> indices(const RunSet& set) {
  std::vector<int> out;
  for (const RunResult& r : set.runs) out.push_back(r.point_index);
  return out;
}

TEST(ResultsFile, HoldsEveryPointAddedInPointOrderAfterEachAdd) {
  const std::string path = temp_dir("rf-order") + "/r.h5";
  ResultsFile file(path, header(), false);
  EXPECT_TRUE(read_results_h5(path).runs.empty());  // written before the first point
  file.add(point(2));
  file.add(point(0));
  file.add(point(1));
  const RunSet& set = file.finish();
  EXPECT_EQ(indices(set), (std::vector<int>{0, 0, 1, 1, 2, 2}));
  const RunSet back = read_results_h5(path);
  EXPECT_EQ(indices(back), indices(set));
  EXPECT_EQ(back.command, "placesim run s.yaml -o 'a b.h5'");
  EXPECT_EQ(back.axis_numeric, (std::vector<bool>{true, false}));
  EXPECT_EQ(back.runs[5].makespan_s, 1.5);
}

TEST(ResultsFile, ResumeReadsThePointsThereAndAMissingFileHasNone) {
  const std::string dir = temp_dir("rf-resume");
  {
    ResultsFile file(dir + "/r.h5", header(), false);
    file.add(point(1));
    file.finish();
  }
  ResultsFile again(dir + "/r.h5", header(), true);
  EXPECT_EQ(again.done(), (std::set<int>{1}));
  again.add(point(0));
  EXPECT_EQ(indices(again.finish()), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_TRUE(ResultsFile(dir + "/none.h5", header(), true).done().empty());
}

TEST(ResultsFile, ResumeRefusesAFileOfAnotherScenarioOrHardwareAndChangesNothing) {
  const std::string dir = temp_dir("rf-refuse");
  {
    ResultsFile file(dir + "/r.h5", header(), false);
    file.add(point(0));
    file.finish();
  }
  const std::string before = read_all(dir + "/r.h5");
  RunSet other = header();
  other.scenario_text += "seed: 2\n";
  EXPECT_THROW(ResultsFile(dir + "/r.h5", other, true), InputError);
  other = header();
  other.hardware_text = "devices: [gpu0]\n";
  try {
    ResultsFile(dir + "/r.h5", other, true);
    ADD_FAILURE() << "resumed a file of other hardware";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("different scenario or hardware text"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_all(dir + "/r.h5"), before);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(ResultsFile, AnUnwritablePathFailsAtOnceNamingThePath) {
  const std::string dir = temp_dir("rf-unwritable");
  std::ofstream(dir + "/plain") << "x";  // a "directory" that is a regular file: refused even as root
  try {
    ResultsFile(dir + "/plain/r.h5", header(), false);
    ADD_FAILURE() << "wrote under a regular file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/plain/r.h5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Not a directory"), std::string::npos) << e.what();
  }
}

// Bad input found before any point finished leaves nothing; found later, it never takes the
// finished points with it (a late error used to delete the file holding six of them).
TEST(ResultsFile, DiscardRemovesOnlyAFileItCreatedAndNoPointWasWrittenTo) {
  const std::string dir = temp_dir("rf-discard");
  {
    ResultsFile file(dir + "/r.h5", header(), false);
    file.discard();
    EXPECT_FALSE(fs::exists(dir + "/r.h5"));
  }
  {
    ResultsFile file(dir + "/r.h5", header(), false);
    file.add(point(0));  // written now or, when the last write was too recent, by discard()
    file.discard();
    ASSERT_TRUE(fs::exists(dir + "/r.h5"));
    EXPECT_EQ(indices(read_results_h5(dir + "/r.h5")), (std::vector<int>{0, 0}));
  }
  ResultsFile resumed(dir + "/r.h5", header(), true);
  EXPECT_EQ(resumed.points_written(), 1u);
  resumed.discard();
  EXPECT_TRUE(fs::exists(dir + "/r.h5"));
}

TEST(AxisValues, NumbersAreWhatReadsAsOne) {
  EXPECT_EQ(axis_number("32"), 32.0);
  EXPECT_EQ(axis_number("-1.5e3"), -1500.0);
  EXPECT_EQ(axis_number("+0.25"), 0.25);
  EXPECT_EQ(axis_number(".5"), 0.5);
  for (const char* text : {"", "inf", "-inf", ".nan", "nan", "[1, 32]", "'32'", "gpt2-large", "32GB", "0x10", "--1", "+"})
    EXPECT_FALSE(axis_number(text).has_value()) << text;
}

TEST(ResultsCsv, OneRowPerRunNumbersAsNumbersTextQuotedWhereNeeded) {
  RunSet set = header();
  set.runs = point(0);
  set.runs[1].makespan_s.reset();
  set.runs[1].message = "needs 2 GB, has \"1\"";
  set.runs[0].peak_mem_bytes = {{"gpu0", 1e9}, {"gpu1", 3e9}};
  set.runs[0].placement_s = 0.125;
  const std::string head =
      "point_index,model.seq,model.arch,placer,status,makespan_s,predicted_s,speedup,gap,ttft_s,tpot_s,"
      "peak_memory_bytes,comm_bytes,placement_s,seed,message\r\n";
  EXPECT_EQ(results_csv(set), head +
                                  "0,32,\"gpt2, \"\"large\"\"\",a,ok,1,,1,,,,3000000000,,0.125,1,\r\n"
                                  "0,32,\"gpt2, \"\"large\"\"\",b,ok,,,2,,,,,,0,1,\"needs 2 GB, has \"\"1\"\"\"\r\n");
}

// A set with a served stream gets its columns before the message; a run without one (a bound)
// leaves them empty.
TEST(ResultsCsv, AServedStreamAddsItsColumns) {
  RunSet set = header();
  set.runs = point(0);
  ServingResult& v = set.runs[0].serving.emplace();
  v.replicas = 2;
  v.kv_blocks = 500;
  v.metrics.ttft = {0, 0.5, 0, 0.75};
  v.metrics.tpot = {0, 0.025, 0, 0.0625};
  v.metrics.e2e = {0, 0, 0, 3.5};
  v.metrics.requests_per_s = 9.5, v.metrics.tokens_per_s = 1200, v.metrics.slo_attainment = 0.875;
  v.metrics.goodput_per_s = 8.25, v.metrics.preemptions = 3;
  const std::string csv = results_csv(set);
  EXPECT_NE(csv.find(",seed,replicas,kv_blocks,ttft_p50_s,ttft_p99_s,tpot_p50_s,tpot_p99_s,e2e_p99_s,requests_per_s,"
                     "tokens_per_s,slo_attainment,goodput_per_s,preemptions,message\r\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",1,2,500,0.5,0.75,0.025,0.0625,3.5,9.5,1200,0.875,8.25,3,\r\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1,,,,,,,,,,,,,\r\n"), std::string::npos) << csv;  // run b: seed 1, no figures, no message
}

TEST(RunResultWire, RoundTripsEveryFieldBitForBit) {
  std::vector<RunResult> runs = point(3);
  RunResult& r = runs[0];
  r.predicted_s = 0.1 + 0.2;  // not a short decimal
  r.gap = 1e-300;
  r.placement_s = 0.0123;
  r.peak_mem_bytes = {{"gpu0", 3.5e9}};
  r.comm_bytes = scheduler::CommBytes{4.5e9, 1.5e9, {{"gpu0", 1.5e9}}, {{"all-reduce", 3e9}}};
  r.generation = GenerationResult{128, 33, 4, 0.025, std::nullopt, false};
  r.milp = scheduler::MilpRecord{"warm:heft", 0.25, std::nullopt, 0.125, 3, 0, 5000000000};
  r.status = scheduler::RunStatus::Limit;
  r.message = "ünïcode\nline";
  r.choices = nlohmann::ordered_json::parse(R"({"z": 1, "a": [1.5, "x"], "m": null})");
  r.seed = 18446744073709551615ull;
  ServingResult& v = r.serving.emplace();
  v.replicas = 3;
  v.kv_blocks = 1ll << 40;
  v.iterations = 7, v.peak_blocks = 8, v.simulations = 9, v.error_samples = 10;
  v.bucket_error = 1.0 / 3;
  v.metrics.ttft = {0.1, 0.2, 0.3, 0.4};
  v.metrics.tpot = {1e-3, 2e-3, 3e-3, 4e-3};
  v.metrics.e2e = {1.5, 2.5, 3.5, 4.5};
  v.metrics.requests_per_s = 0.7, v.metrics.tokens_per_s = 70.1, v.metrics.slo_attainment = 0.99;
  v.metrics.goodput_per_s = 0.69, v.metrics.kv_mean_use = 0.25, v.metrics.preemptions = 11;
  for (int q = 0; q <= 100; ++q) v.metrics.ttft_quantiles.push_back(0.1 + q / 7.0);
  const std::vector<RunResult> back = runs_from_wire(runs_to_wire(runs));
  ASSERT_EQ(back.size(), 2u);
  const RunResult& b = back[0];
  EXPECT_EQ(b.point_index, r.point_index);
  EXPECT_EQ(b.point, r.point);
  EXPECT_EQ(b.placer, r.placer);
  EXPECT_EQ(b.status, r.status);
  EXPECT_EQ(b.makespan_s, r.makespan_s);
  EXPECT_EQ(b.predicted_s, r.predicted_s);
  EXPECT_EQ(b.gap, r.gap);
  EXPECT_EQ(b.speedup, r.speedup);
  EXPECT_EQ(b.peak_mem_bytes, r.peak_mem_bytes);
  EXPECT_EQ(b.comm_bytes, r.comm_bytes);
  EXPECT_EQ(b.generation, r.generation);
  EXPECT_EQ(b.milp, r.milp);
  EXPECT_EQ(b.serving, r.serving);
  EXPECT_FALSE(back[1].serving.has_value());
  EXPECT_EQ(b.placement_s, r.placement_s);
  EXPECT_EQ(b.message, r.message);
  EXPECT_EQ(b.choices.dump(), r.choices.dump());  // key order kept
  EXPECT_EQ(b.seed, r.seed);
  EXPECT_FALSE(back[1].comm_bytes.has_value());
  EXPECT_FALSE(back[1].milp.has_value());
}

std::string string_attr(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* text = nullptr;
  std::string value = H5Aread(attr, type, &text) >= 0 && text ? text : "<missing>";
  H5free_memory(text);
  H5Tclose(type);
  H5Aclose(attr);
  H5Fclose(file);
  return value;
}

TEST(Provenance, RunAndValidateFilesSayWhatWroteThem) {
  const std::string dir = temp_dir("provenance");
  ResultsFile(dir + "/run.h5", header(), false).finish();
  ValidateSet v;
  v.scenario = "s";
  v.backend = "cpu";
  write_validate_h5(dir + "/validate.h5", v, "placesim validate s.yaml");
  for (const std::string file : {"run.h5", "validate.h5"}) {
    SCOPED_TRACE(file);
    EXPECT_NE(string_attr(dir + "/" + file, "placesim_version"), "<missing>");
    EXPECT_EQ(string_attr(dir + "/" + file, "git_commit").size(), 40u);  // this repository's HEAD at configure time
  }
  EXPECT_EQ(string_attr(dir + "/run.h5", "command"), "placesim run s.yaml -o 'a b.h5'");
  EXPECT_EQ(string_attr(dir + "/validate.h5", "command"), "placesim validate s.yaml");
  EXPECT_EQ(string_attr(dir + "/run.h5", "scenario_hash"), scenario_hash(header().scenario_text, header().hardware_text));
  EXPECT_EQ(scenario_hash("", ""), "af63bd4c8601b7df");  // FNV-1a 64 of one NUL byte, by hand
}

}  // namespace
}  // namespace placesim::explore
