// The Chrome trace of the hand-made run in sample_run.hpp: valid JSON, a lane per queue, one
// complete event per task at the right time, counter tracks, deterministic bytes, atomic files.
#include "sim/trace/chrome_trace.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "tests/sim/trace/sample_run.hpp"

namespace placesim::trace {
namespace {

using nlohmann::json;
using testdata::sample_graph;
using testdata::sample_trace;

std::string trace_text(const engine::TaskGraph& g, const engine::Trace& t) {
  std::ostringstream out;
  write_chrome_trace(out, g, t);
  return out.str();
}

std::vector<json> events_with_phase(const json& doc, const std::string& ph) {
  std::vector<json> found;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) found.push_back(e);
  }
  return found;
}

TEST(ChromeTrace, HasOneNamedLanePerQueueInQueueOrder) {
  const json doc = json::parse(trace_text(sample_graph(), sample_trace()));
  std::map<int, std::string> lanes;
  std::map<int, int> sort_index;
  for (const json& e : events_with_phase(doc, "M")) {
    EXPECT_EQ(e.at("pid"), 1);
    if (e.at("name") == "thread_name") lanes[e.at("tid")] = e.at("args").at("name");
    if (e.at("name") == "thread_sort_index") sort_index[e.at("tid")] = e.at("args").at("sort_index");
  }
  EXPECT_EQ(lanes, (std::map<int, std::string>{{1, "gpu0.compute"}, {2, "gpu0.h2d"}}));
  EXPECT_EQ(sort_index, (std::map<int, int>{{1, 0}, {2, 1}}));
}

TEST(ChromeTrace, HasOneCompleteEventPerTaskInMicroseconds) {
  const json doc = json::parse(trace_text(sample_graph(), sample_trace()));
  const std::vector<json> xs = events_with_phase(doc, "X");
  ASSERT_EQ(xs.size(), 3u);

  EXPECT_EQ(xs[0].at("name"), "copy w");
  EXPECT_EQ(xs[0].at("tid"), 2);
  EXPECT_DOUBLE_EQ(xs[0].at("ts").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(xs[0].at("dur").get<double>(), 101.0);
  EXPECT_EQ(xs[0].at("args").at("kind"), "transfer");
  EXPECT_DOUBLE_EQ(xs[0].at("args").at("bytes").get<double>(), 1e6);
  EXPECT_EQ(xs[0].at("args").at("op"), -1);
  EXPECT_DOUBLE_EQ(xs[0].at("args").at("start_us").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(xs[0].at("args").at("active_us").get<double>(), 1.0);

  EXPECT_EQ(xs[1].at("name"), "matmul");
  EXPECT_EQ(xs[1].at("tid"), 1);
  EXPECT_DOUBLE_EQ(xs[1].at("ts").get<double>(), 101.0);
  EXPECT_DOUBLE_EQ(xs[1].at("dur").get<double>(), 50.0);
  EXPECT_EQ(xs[1].at("args").at("kind"), "compute");
  EXPECT_EQ(xs[1].at("args").at("op"), 3);

  EXPECT_EQ(xs[2].at("name"), "add");
  EXPECT_DOUBLE_EQ(xs[2].at("ts").get<double>(), 151.0);
  EXPECT_DOUBLE_EQ(xs[2].at("dur").get<double>(), 20.0);
}

TEST(ChromeTrace, SkipsTasksThatNeverRan) {
  engine::Trace t = sample_trace();
  t.tasks[2] = {};
  const json doc = json::parse(trace_text(sample_graph(), t));
  EXPECT_EQ(events_with_phase(doc, "X").size(), 2u);
}

TEST(ChromeTrace, HasUsageAndMemoryCounters) {
  const json doc = json::parse(trace_text(sample_graph(), sample_trace()));
  std::map<std::string, std::vector<std::pair<double, double>>> counters;
  for (const json& e : events_with_phase(doc, "C")) {
    const json& args = e.at("args");
    ASSERT_EQ(args.size(), 1u);
    counters[e.at("name")].emplace_back(e.at("ts").get<double>(), args.begin()->get<double>());
  }
  using Series = std::vector<std::pair<double, double>>;
  EXPECT_EQ(counters["pcie0.down"], (Series{{1.0, 10e9}, {101.0, 0.0}}));
  EXPECT_EQ(counters["gpu0"], (Series{{101.0, 1.0}, {171.0, 0.0}}));
  EXPECT_EQ(counters["gpu0.mem"], (Series{{0.0, 0.0}, {101.0, 1e6}, {151.0, 1.5e6}, {171.0, 0.0}}));
  EXPECT_EQ(counters.size(), 3u);
}

TEST(ChromeTrace, IsDeterministic) {
  EXPECT_EQ(trace_text(sample_graph(), sample_trace()), trace_text(sample_graph(), sample_trace()));
}

class ChromeTraceFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("placesim-chrome-trace-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ChromeTraceFile, WritesTheSameBytesAndLeavesNoTempFile) {
  const std::string path = (dir_ / "run.json").string();
  write_chrome_trace_file(path, sample_graph(), sample_trace());
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), trace_text(sample_graph(), sample_trace()));
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(ChromeTraceFile, MissingDirectoryIsCreatedUnwritableIsAnInputError) {
  const std::string path = (dir_ / "new-dir" / "run.json").string();
  write_chrome_trace_file(path, sample_graph(), sample_trace());
  EXPECT_TRUE(std::filesystem::exists(path));
  // A "directory" that is a regular file cannot hold the trace.
  std::ofstream(dir_ / "plain-file") << "x";
  EXPECT_THROW(write_chrome_trace_file((dir_ / "plain-file" / "run.json").string(), sample_graph(), sample_trace()),
               InputError);
}

}  // namespace
}  // namespace placesim::trace
