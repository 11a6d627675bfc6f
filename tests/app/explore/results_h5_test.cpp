// The HDF5 results file: an exact round trip (absent optionals and peak-memory maps included),
// its reproducibility attributes, atomic writing, and the errors for files it cannot read.
#include "app/explore/results_h5.hpp"

#include <gtest/gtest.h>
#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace placesim::explore {
namespace {

namespace fs = std::filesystem;

RunSet sample_set() {
  RunSet set;
  set.scenario = "sortinghat-v100";
  set.scenario_text = "name: sortinghat-v100\nplacers: [single-device, critical-path]\n";
  set.hardware_text = "devices:\n  gpu0: {type: gpu}\n";
  set.baseline = "single-device";
  set.axes = {"model.arch", "model.[batch,seq]"};

  RunResult ok;
  ok.point_index = 0;
  ok.point = {{"model.arch", "gpt2-large"}, {"model.[batch,seq]", "[1, 32]"}};
  ok.placer = "single-device";
  ok.status = scheduler::RunStatus::Ok;
  ok.makespan_s = 0.125;
  ok.predicted_s = 0.1;
  ok.speedup = 1.0;
  ok.gap = 0.03;
  ok.peak_mem_bytes = {{"gpu0", 3.5e9}, {"gpu1", 1024.0}};
  ok.comm_bytes = scheduler::CommBytes{4.5e9, 1.5e9, {{"gpu0", 1.5e9}, {"gpu1", 0.0}, {"cpu0", 1e6}},
                                       {{"all-reduce", 3e9}, {"parameter", 1.5e9 - 1e6}, {"activation", 1e6}}};
  ok.placement_s = 0.002;
  ok.seed = 18446744073709551615ull;

  RunResult bound;
  bound.point_index = 0;
  bound.point = ok.point;
  bound.placer = "critical-path";
  bound.status = scheduler::RunStatus::Ok;
  bound.predicted_s = 0.05;
  bound.placement_s = 1e-5;
  bound.seed = 1;

  RunResult failed;
  failed.point_index = 1;
  failed.point = {{"model.arch", "openllama-7b"}, {"model.[batch,seq]", "[4, 128]"}};
  failed.placer = "milp-sortinghat{q=6; a=b}";
  failed.status = scheduler::RunStatus::Infeasible;
  failed.peak_mem_bytes = {{"gpu0", 4.2e10}};
  failed.comm_bytes = scheduler::CommBytes{0.0, 0.0, {{"gpu0", 0.0}}, {}};
  failed.message = "gpu0: needs 42 GB, has 32 GB\nsecond line, ünïcode";
  failed.seed = 7;
  failed.milp = scheduler::MilpRecord{"none", std::nullopt, std::nullopt, std::nullopt, 2, 1, 5000000000};

  RunResult warm = ok;  // a MILP placer that returned its warm start: its own plan recorded
  warm.point_index = 4;
  warm.placer = "efficientmip";
  warm.milp = scheduler::MilpRecord{"warm:heft", 0.25, 0.2, 0.125, 3, 0, 42};

  RunResult generation = ok;  // a whole generation: its makespan is the end-to-end latency
  generation.point_index = 2;
  generation.placer = "megatron-tp";
  generation.generation = GenerationResult{128, 33, 4, 0.025, 0.003125, false};
  RunResult one_token = generation;  // output 1: no decode step, so no TPOT; no layout compared
  one_token.point_index = 3;
  one_token.generation = GenerationResult{7, 1, 1, 0.5, std::nullopt, std::nullopt};

  set.runs = {ok, bound, failed, generation, one_token, warm};
  return set;
}

void expect_same(const RunSet& a, const RunSet& b) {
  EXPECT_EQ(a.scenario, b.scenario);
  EXPECT_EQ(a.scenario_text, b.scenario_text);
  EXPECT_EQ(a.hardware_text, b.hardware_text);
  EXPECT_EQ(a.baseline, b.baseline);
  EXPECT_EQ(a.axes, b.axes);
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(i));
    const RunResult& x = a.runs[i];
    const RunResult& y = b.runs[i];
    EXPECT_EQ(x.point_index, y.point_index);
    EXPECT_EQ(x.point, y.point);
    EXPECT_EQ(x.placer, y.placer);
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.makespan_s, y.makespan_s);
    EXPECT_EQ(x.predicted_s, y.predicted_s);
    EXPECT_EQ(x.speedup, y.speedup);
    EXPECT_EQ(x.gap, y.gap);
    EXPECT_EQ(x.peak_mem_bytes, y.peak_mem_bytes);
    EXPECT_EQ(x.comm_bytes, y.comm_bytes);
    EXPECT_EQ(x.generation, y.generation);
    EXPECT_EQ(x.milp, y.milp);
    EXPECT_EQ(x.placement_s, y.placement_s);
    EXPECT_EQ(x.message, y.message);
    EXPECT_EQ(x.seed, y.seed);
  }
}

int int_attr(const std::string& path, const char* name) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  int value = -1;
  H5Aread(attr, H5T_NATIVE_INT, &value);
  H5Aclose(attr);
  H5Fclose(file);
  return value;
}

class ResultsH5 : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("placesim-results-h5-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    return names;
  }
  fs::path dir_;
};

TEST_F(ResultsH5, RoundTripsEveryField) {
  const RunSet set = sample_set();
  write_results_h5(path("r.h5"), set);
  const RunSet back = read_results_h5(path("r.h5"));
  expect_same(set, back);
  EXPECT_FALSE(back.runs[1].makespan_s.has_value());
  EXPECT_FALSE(back.runs[2].predicted_s.has_value());
  EXPECT_FALSE(back.runs[1].gap.has_value());
  EXPECT_TRUE(back.runs[1].peak_mem_bytes.empty());
  EXPECT_FALSE(back.runs[1].comm_bytes.has_value());
  EXPECT_TRUE(back.runs[2].comm_bytes.has_value());  // a run that moved nothing has zeros, not none
  EXPECT_FALSE(back.runs[0].generation.has_value());
  EXPECT_EQ(back.runs[3].generation->weights_shared, false);
  EXPECT_FALSE(back.runs[4].generation->tpot_s.has_value());
  EXPECT_FALSE(back.runs[4].generation->weights_shared.has_value());
  EXPECT_FALSE(back.runs[0].milp.has_value());
  EXPECT_FALSE(back.runs[2].milp->makespan_s.has_value());
  EXPECT_EQ(back.runs[5].milp->plan_source, "warm:heft");
}

TEST_F(ResultsH5, RoundTripsAnEmptyRunSet) {
  RunSet set;
  set.scenario = "empty";
  write_results_h5(path("e.h5"), set);
  expect_same(set, read_results_h5(path("e.h5")));
}

TEST_F(ResultsH5, CarriesTheSchemaVersionAndLeavesNoTempFile) {
  write_results_h5(path("r.h5"), sample_set());
  EXPECT_EQ(int_attr(path("r.h5"), "schema_version"), kResultsSchemaVersion);
  EXPECT_EQ(files(), std::vector<std::string>{"r.h5"});
  write_results_h5(path("r.h5"), sample_set());  // overwriting replaces the file
  EXPECT_EQ(files(), std::vector<std::string>{"r.h5"});
}

TEST_F(ResultsH5, MissingDirectoryIsCreatedUnwritableIsAnInputErrorAndLeavesNothing) {
  write_results_h5(path("new/r.h5"), sample_set());
  EXPECT_EQ(int_attr(path("new/r.h5"), "schema_version"), kResultsSchemaVersion);
  std::filesystem::remove_all(path("new"));
  std::ofstream(path("plain-file")) << "x";  // a "directory" that is a regular file
  EXPECT_THROW(write_results_h5(path("plain-file/r.h5"), sample_set()), InputError);
  EXPECT_EQ(files(), std::vector<std::string>{"plain-file"});
}

TEST_F(ResultsH5, MissingFileIsAnInputError) {
  EXPECT_THROW(read_results_h5(path("none.h5")), InputError);
}

TEST_F(ResultsH5, NonHdf5FileIsAnInputError) {
  std::ofstream(path("x.h5")) << "not an HDF5 file\n";
  EXPECT_THROW(read_results_h5(path("x.h5")), InputError);
}

TEST_F(ResultsH5, HdfFileWithoutOurLayoutIsAnInputError) {
  H5Fclose(H5Fcreate(path("other.h5").c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  EXPECT_THROW(read_results_h5(path("other.h5")), InputError);
}

// Rewrites a results file's schema_version and drops the tables older schemas did not have.
void set_schema(const std::string& path, int version, const std::vector<const char*>& drop = {}) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  const hid_t attr = H5Aopen(file, "schema_version", H5P_DEFAULT);
  H5Awrite(attr, H5T_NATIVE_INT, &version);
  H5Aclose(attr);
  for (const char* table : drop) H5Ldelete(file, table, H5P_DEFAULT);
  H5Fclose(file);
}

TEST_F(ResultsH5, OtherSchemaVersionIsAnInputErrorSayingSo) {
  for (int version : {kOldestReadableSchemaVersion - 1, kResultsSchemaVersion + 1}) {
    write_results_h5(path("r.h5"), sample_set());
    set_schema(path("r.h5"), version);
    try {
      read_results_h5(path("r.h5"));
      FAIL() << "expected an InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "results file " + path("r.h5") + " has schema version " +
                                           std::to_string(version) + ", this placesim reads 2 to " +
                                           std::to_string(kResultsSchemaVersion));
    }
  }
}

// A schema 2 file (before communication volumes) reads as the same runs without them.
TEST_F(ResultsH5, SchemaTwoFilesReadWithoutCommBytes) {
  write_results_h5(path("r.h5"), sample_set());
  set_schema(path("r.h5"), 2, {"comm_bytes", "generation", "milp"});
  RunSet expected = sample_set();
  for (RunResult& r : expected.runs) {
    r.comm_bytes.reset();
    r.generation.reset();
    r.milp.reset();
  }
  expect_same(expected, read_results_h5(path("r.h5")));
}

// A schema 3 file (before whole generations) reads as the same runs without them.
TEST_F(ResultsH5, SchemaThreeFilesReadWithoutGenerations) {
  write_results_h5(path("r.h5"), sample_set());
  set_schema(path("r.h5"), 3, {"generation", "milp"});
  RunSet expected = sample_set();
  for (RunResult& r : expected.runs) {
    r.generation.reset();
    r.milp.reset();
  }
  expect_same(expected, read_results_h5(path("r.h5")));
}

// A schema 4 file (before MILP records) reads as the same runs without them.
TEST_F(ResultsH5, SchemaFourFilesReadWithoutMilpRecords) {
  write_results_h5(path("r.h5"), sample_set());
  set_schema(path("r.h5"), 4, {"milp"});
  RunSet expected = sample_set();
  for (RunResult& r : expected.runs) r.milp.reset();
  expect_same(expected, read_results_h5(path("r.h5")));
}

}  // namespace
}  // namespace placesim::explore
