// The Chrome trace of the hand-made run in sample_run.hpp: valid JSON, a lane per queue, one
// complete event per task at the right time, counter tracks, deterministic bytes, atomic files.
#include "sim/trace/chrome_trace.hpp"
#include "sim/trace/trace_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/engine/executor.hpp"
#include "tests/sim/trace/sample_run.hpp"

namespace placesim::trace {
namespace {

using nlohmann::json;
using testdata::sample_graph;
using testdata::sample_trace;

std::string trace_text(const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& f = {}) {
  std::ostringstream out;
  write_chrome_trace(out, g, t, f);
  return out.str();
}

using Series = std::vector<std::pair<double, double>>;

// Per counter track, its (ts, value) samples.
std::map<std::string, Series> counters_of(const json& doc) {
  std::map<std::string, Series> counters;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") != "C") continue;
    counters[e.at("name")].emplace_back(e.at("ts").get<double>(), e.at("args").begin()->get<double>());
  }
  return counters;
}

std::vector<json> events_with_phase(const json& doc, const std::string& ph) {
  std::vector<json> found;
  for (const json& e : doc.at("traceEvents")) {
    if (e.at("ph") == ph) found.push_back(e);
  }
  return found;
}

// The names of the tasks a trace shows, in its order.
std::vector<std::string> task_names(const json& doc) {
  std::vector<std::string> names;
  for (const json& e : events_with_phase(doc, "X")) names.push_back(e.at("name"));
  return names;
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
  for (const json& e : events_with_phase(doc, "C")) ASSERT_EQ(e.at("args").size(), 1u);
  std::map<std::string, Series> counters = counters_of(doc);
  EXPECT_EQ(counters["pcie0.down"], (Series{{1.0, 10e9}, {101.0, 0.0}}));
  EXPECT_EQ(counters["gpu0"], (Series{{101.0, 1.0}, {171.0, 0.0}}));
  EXPECT_EQ(counters["gpu0.mem"], (Series{{0.0, 0.0}, {101.0, 1e6}, {151.0, 1.5e6}, {171.0, 0.0}}));
  EXPECT_EQ(counters.size(), 3u);
}

TEST(ChromeTrace, IsDeterministic) {
  EXPECT_EQ(trace_text(sample_graph(), sample_trace()), trace_text(sample_graph(), sample_trace()));
}

// Names keep lanes by their queue and tracks by their resource or pool: "*compute" keeps the
// compute lane (matmul, add) and no track; "pcie*" keeps the link's track whole.
TEST(ChromeTraceFilter, NamesKeepLanesAndTracksByGlob) {
  const TraceFilter f = parse_trace_filter({"*compute,pcie*"});
  const json doc = json::parse(trace_text(sample_graph(), sample_trace(), f));
  EXPECT_EQ(task_names(doc), (std::vector<std::string>{"matmul", "add"}));
  std::vector<std::string> lanes;
  for (const json& e : events_with_phase(doc, "M"))
    if (e.at("name") == "thread_name") lanes.push_back(e.at("args").at("name"));
  EXPECT_EQ(lanes, (std::vector<std::string>{"gpu0.compute"}));
  EXPECT_EQ(counters_of(doc), (std::map<std::string, Series>{{"pcie0.down", {{1.0, 10e9}, {101.0, 0.0}}}}));
}

// A window of 120..160 us keeps the tasks that ran in it (matmul 101-151, add 151-171; not the
// copy, 0-101) and each track's value in force at 120 us as a sample there, then its samples up
// to 160 us: gpu0 busy (1 since 101), the link idle (0 since 101), memory 1e6 (since 101) then
// 1.5e6 at 151; the samples at 171 us are past the window.
TEST(ChromeTraceFilter, AWindowKeepsWhatRanInItAndTheValuesInForceAtItsStart) {
  const TraceFilter f = parse_trace_filter({"time=120us..160us"});
  const json doc = json::parse(trace_text(sample_graph(), sample_trace(), f));
  EXPECT_EQ(task_names(doc), (std::vector<std::string>{"matmul", "add"}));
  EXPECT_EQ(counters_of(doc), (std::map<std::string, Series>{{"gpu0", {{120.0, 1.0}}},
                                                              {"pcie0.down", {{120.0, 0.0}}},
                                                              {"gpu0.mem", {{120.0, 1e6}, {151.0, 1.5e6}}}}));
}

TEST(ChromeTraceFilter, ParsesNamesAndOneWindowAndRefusesTheRest) {
  TraceFilter f = parse_trace_filter({"a*,b?", "time=1ms..2ms"});
  EXPECT_EQ(f.names, (std::vector<std::string>{"a*", "b?"}));
  EXPECT_EQ(f.from, 1'000'000'000);
  EXPECT_EQ(f.to, 2'000'000'000);
  f = parse_trace_filter({"time=..5us"});
  EXPECT_TRUE(f.names.empty());
  EXPECT_EQ(f.from, 0);
  EXPECT_EQ(f.to, 5'000'000);
  f = parse_trace_filter({"time=3s.."});
  EXPECT_EQ(f.from, 3'000'000'000'000);
  EXPECT_EQ(f.to, std::numeric_limits<TimePs>::max());
  EXPECT_TRUE(f.keeps("x"));
  for (const char* bad : {"time=5ms", "time=2ms..1ms", "a,,b", "time=1ms..2ms,time=..3ms", "time=1parsec..", ""}) {
    try {
      parse_trace_filter({bad});
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--trace-filter"), std::string::npos) << e.what();
    }
  }
}

// The sample graph simulated (its hand-made trace is what the engine makes of it), traced in
// memory and written after, and streamed as the run goes: the same events, filtered or not (a
// streamed trace writes its usage tracks first). The engine records no sample of a resource the
// filter leaves out.
TEST(ChromeTraceFilter, AStreamedTraceHasTheEventsOfOneWrittenAfter) {
  const std::string dir = ::testing::TempDir();
  for (const std::vector<std::string>& terms : {std::vector<std::string>{}, std::vector<std::string>{"pcie*,gpu0.*,time=50us..160us"}}) {
    const TraceFilter f = parse_trace_filter(terms);
    const engine::TaskGraph g = sample_graph();
    engine::SimOptions in_memory;
    in_memory.record_usage = true;
    const engine::Trace t = engine::simulate(g, in_memory);
    const std::string path = dir + "/streamed.json";
    {
      trace::TraceFile file(path, f);
      engine::SimOptions streamed;
      streamed.record_usage = true;
      streamed.usage_sink = &file;
      const engine::Trace s = engine::simulate(g, streamed);
      for (const auto& series : s.usage) EXPECT_TRUE(series.empty());
      file.finish(g, s);
    }
    std::ifstream in(path);
    const json streamed_doc = json::parse(in), written_doc = json::parse(trace_text(g, t, f));
    std::vector<std::string> a, b;
    for (const json& e : streamed_doc.at("traceEvents")) a.push_back(e.dump());
    for (const json& e : written_doc.at("traceEvents")) b.push_back(e.dump());
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_EQ(a, b);
    EXPECT_EQ(counters_of(json::parse(trace_text(g, t))).at("gpu0"), (Series{{101.0, 1.0}, {171.0, 0.0}}));
  }
}

class ChromeTraceFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("placesim-chrome-trace-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ChromeTraceFiles, WritesTheSameBytesAndLeavesNoTempFile) {
  const std::string path = (dir_ / "run.json").string();
  write_trace_file(path, sample_graph(), sample_trace());
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), trace_text(sample_graph(), sample_trace()));
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1);
}

// A streamed trace whose run never finished (an error, a stop) leaves nothing behind.
TEST_F(ChromeTraceFiles, AStreamedTraceNeverFinishedLeavesNoFile) {
  const std::string path = (dir_ / "run.json").string();
  {
    trace::TraceFile file(path);
    const engine::TaskGraph g = sample_graph();
    file.begin(g);
    file.sample(1, {1 * testdata::kUs, 10e9});
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir_));
}

// A run killed while streaming its trace leaves PATH.tmp-<pid>; the next trace written to PATH
// removes it (a pid past the kernel's limit is no live process's), and leaves only PATH.
TEST_F(ChromeTraceFiles, ATraceRemovesTheTemporaryFileAKilledRunLeft) {
  const std::string path = (dir_ / "run.json").string();
  std::ofstream(path + ".tmp-999999999") << "{\"traceEvents\":[";
  {
    trace::TraceFile file(path);
    const engine::TaskGraph g = sample_graph();
    engine::SimOptions so;
    so.record_usage = true;
    so.usage_sink = &file;
    file.finish(g, engine::simulate(g, so));
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) files.push_back(entry.path().filename().string());
  EXPECT_EQ(files, std::vector<std::string>{"run.json"});
}

TEST_F(ChromeTraceFiles, MissingDirectoryIsCreatedUnwritableIsAnInputError) {
  const std::string path = (dir_ / "new-dir" / "run.json").string();
  write_trace_file(path, sample_graph(), sample_trace());
  EXPECT_TRUE(std::filesystem::exists(path));
  // A "directory" that is a regular file cannot hold the trace.
  std::ofstream(dir_ / "plain-file") << "x";
  EXPECT_THROW(write_trace_file((dir_ / "plain-file" / "run.json").string(), sample_graph(), sample_trace()),
               InputError);
}

}  // namespace
}  // namespace placesim::trace
