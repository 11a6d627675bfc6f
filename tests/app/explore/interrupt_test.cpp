// Ctrl-C during a long MILP search (sim/core/stop_request.hpp): the first says so at once, the
// search ends with its best plan so far, marked `interrupted`, and placesim exits 130 within
// seconds of a search that had a minute; a second Ctrl-C ends the process and leaves no lock;
// a lock file a killed process left is taken over with a note; --resume runs a point with an
// interrupted run again and keeps the whole ones.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/support/run_cli.hpp"
#include "scheduler/run_status.hpp"
#include "app/explore/results_file.hpp"
#include "app/explore/results_h5.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::temp_dir;
using placesim::testing::write_file;

// One point, a MILP given a minute: only a stop ends it sooner.
const char* kLong =
    "name: long\n"
    "hardware: sortinghat-v100\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 4, batch: 1, seq: 128, phase: prefill}\n"
    "placers: [single-device, {name: milp-sortinghat, time_limit: 60}]\n"
    "baseline: single-device\n";

// `placesim run SCENARIO -o OUT` with stderr into ERR; its pid once OUT exists (the sweep has
// begun: its signal handler is in place), or -1.
pid_t start_run(const std::string& scenario, const std::string& out, const std::string& err) {
  const pid_t pid = placesim::testing::spawn_placesim({"run", scenario, "-o", out}, err);
  for (;;) {
    if (fs::exists(out)) break;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past the handler's installation
  return pid;
}

TEST(Interrupt, FirstCtrlCEndsTheSearchWithItsBestPlanMarkedInterrupted) {
  const std::string dir = temp_dir("interrupt");
  const std::string scenario = write_file(dir, "long.yaml", kLong), out = dir + "/r.h5", err = dir + "/err";
  const pid_t pid = start_run(scenario, out, err);
  ASSERT_GT(pid, 0) << read_all(err);
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the MILP's search under way
  const auto signalled = Clock::now();
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  const double took = std::chrono::duration<double>(Clock::now() - signalled).count();
  const std::string text = read_all(err);
  ASSERT_TRUE(WIFEXITED(status)) << text;
  EXPECT_EQ(WEXITSTATUS(status), 130) << text;
  EXPECT_LT(took, 10.0) << "a minute's search did not end soon after Ctrl-C\n" << text;
  EXPECT_NE(text.find("placesim: stopping: no new sweep points start"), std::string::npos) << text;
  EXPECT_NE(text.find("run the same command with --resume"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(out + ".lock"));

  const auto c = run_cli("compare " + out + " --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto placers = nlohmann::json::parse(c.out)["points"][0]["placers"];
  EXPECT_EQ(placers["single-device"]["status"], "ok");
  const auto& milp = placers["milp-sortinghat{time_limit=60}"];
  EXPECT_EQ(milp["status"], "interrupted");
  EXPECT_TRUE(milp["value_s"].is_number()) << "no plan came back";
}

TEST(Interrupt, SecondCtrlCEndsTheProcessAndLeavesNoLock) {
  const std::string dir = temp_dir("interrupt-twice");
  const std::string scenario = write_file(dir, "long.yaml", kLong), out = dir + "/r.h5", err = dir + "/err";
  const pid_t pid = start_run(scenario, out, err);
  ASSERT_GT(pid, 0) << read_all(err);
  ::kill(pid, SIGINT);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    EXPECT_EQ(WEXITSTATUS(status), 130) << "the first Ctrl-C's stop ended it before the second arrived";
  } else {
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << read_all(err);
  }
  EXPECT_FALSE(fs::exists(out + ".lock"));
}

TEST(Interrupt, ALockAKilledProcessLeftIsTakenOverWithANote) {
  const std::string dir = temp_dir("stale-lock");
  const std::string scenario = write_file(dir, "s.yaml",
                                          "name: s\nhardware: sortinghat-v100\n"
                                          "model: {generator: transformer, arch: gpt2-large, layers: 1, seq: 16}\n"
                                          "placers: [single-device]\n");
  // A process that ended: its pid in the lock file, as a killed holder leaves it.
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  std::ofstream(dir + "/r.h5.lock") << gone;
  const auto r = run_cli("run " + scenario + " -o " + dir + "/r.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("placesim: note: " + dir + "/r.h5.lock was left by process " + std::to_string(gone) +
                       ", which ended without removing it; taken over"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/r.h5.lock"));
}

placesim::explore::RunResult run_of(int point, const std::string& placer, placesim::scheduler::RunStatus status) {
  placesim::explore::RunResult r;
  r.point_index = point;
  r.point = {{"a", std::to_string(point)}};
  r.placer = placer;
  r.status = status;
  r.makespan_s = 1.0;
  return r;
}

// A file whose point 1 has an interrupted run: resuming it, point 0 is done and kept, point 1
// is to run again and its runs are gone.
TEST(Interrupt, ResumeRunsAPointWithAnInterruptedRunAgain) {
  using placesim::scheduler::RunStatus;
  const std::string dir = temp_dir("resume-interrupted");
  placesim::explore::RunSet set;
  set.scenario = "s";
  set.scenario_text = "name: s\n";
  set.hardware_text = "hw\n";
  set.axes = {"a"};
  set.axis_numeric = {true};
  placesim::explore::RunSet header = set;
  set.runs = {run_of(0, "p", RunStatus::Ok), run_of(0, "q", RunStatus::Limit), run_of(1, "p", RunStatus::Ok),
              run_of(1, "q", RunStatus::Interrupted)};
  placesim::explore::write_results_h5(dir + "/r.h5", set);
  {
    placesim::explore::ResultsFile file(dir + "/r.h5", header, /*resume=*/true);
    EXPECT_EQ(file.done(), (std::set<int>{0}));
    const placesim::explore::RunSet& kept = file.finish();
    ASSERT_EQ(kept.runs.size(), 2u);
    for (const auto& r : kept.runs) EXPECT_EQ(r.point_index, 0);
  }
}

}  // namespace
