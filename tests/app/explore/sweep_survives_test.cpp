// `placesim run` against what ends a sweep early: SIGKILL at random moments (seeded) leaves a
// results file h5py opens, holding whole points only, each the same as in an unbroken run, and
// --resume then completes it to the unbroken run's results; Ctrl-C (SIGINT) ends the sweep with
// the file whole and says how to resume; an unwritable -o and a --resume of another scenario's
// file fail before the first point and change nothing. Under MPI (when built), -j 1, -j 2 and
// two ranks give the same results.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "tests/support/run_cli.hpp"
#include "sim/core/output_lock.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::OutputLock;
using placesim::testing::CliResult;
using placesim::testing::dump_results_h5;
using placesim::testing::read_all;
using placesim::testing::run_cli;
using placesim::testing::run_command;
using placesim::testing::temp_dir;

// 64 points x 3 placers, a second or so on one thread.
const char* kSweep =
    "name: sweep\n"
    "hardware: sortinghat-v100\n"
    "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, phase: prefill}\n"
    "placers: [single-device, round-robin, critical-path]\n"
    "baseline: single-device\n"
    "sweep:\n"
    "  model.seq: [32, 64, 96, 128]\n"
    "  model.batch: [1, 2, 4, 8]\n"
    "  model.layers: [1, 2, 3, 4]\n";
constexpr int kPoints = 64, kPlacers = 3;

using placesim::testing::write_file;

// Starts `placesim args...` with its output discarded; returns its pid.
pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv{const_cast<char*>(PLACESIM_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    ::execv(PLACESIM_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

// Waits until `ready()` holds or the process ended; whether it holds.
template <class Ready>
bool wait_until(Ready ready, pid_t pid) {
  for (;;) {
    if (ready()) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return ready();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Waits until `path` exists (the sweep has begun) or the process ended; true when it exists.
bool wait_for_file(const std::string& path, pid_t pid) {
  return wait_until([&] { return fs::exists(path); }, pid);
}

// Waits until `dir` holds a file (a sweep run with --trace has simulated its first run) or the
// process ended; true when it holds one.
bool wait_for_trace(const std::string& dir, pid_t pid) {
  return wait_until([&] { return fs::exists(dir) && !fs::is_empty(dir); }, pid);
}

// The runs of a results file by (point, placer), each as dump_results_h5 prints it.
std::map<std::pair<int, std::string>, nlohmann::json> runs_of(const std::string& dump) {
  const nlohmann::json doc = nlohmann::json::parse(dump);
  std::map<std::pair<int, std::string>, nlohmann::json> out;
  for (const auto& r : doc.at("runs")) out[{r.at("point_index").get<int>(), r.at("placer").get<std::string>()}] = r;
  return out;
}

class SweepSurvives : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = temp_dir("survives");
    scenario_ = write_file(dir_, "s.yaml", kSweep);
    const CliResult whole = run_cli("run " + scenario_ + " -j 1 -o " + dir_ + "/whole.h5");
    ASSERT_EQ(whole.code, 0) << whole.err;
    const CliResult dump = dump_results_h5(dir_ + "/whole.h5");
    ASSERT_EQ(dump.code, 0) << dump.err;
    whole_ = dump.out;
  }

  // `path` opens with h5py and holds whole points only, each run as in the unbroken run; the
  // number of points it holds.
  int expect_whole_points(const std::string& path) {
    const CliResult dump = dump_results_h5(path);
    EXPECT_EQ(dump.code, 0) << dump.err;
    if (dump.code != 0) return -1;
    const auto whole = runs_of(whole_);
    std::map<int, int> placers;
    for (const auto& [key, run] : runs_of(dump.out)) {
      ++placers[key.first];
      EXPECT_EQ(run, whole.at(key)) << "point " << key.first << " " << key.second;
    }
    for (const auto& [point, n] : placers) EXPECT_EQ(n, kPlacers) << "point " << point << " is not whole";
    return static_cast<int>(placers.size());
  }

  // --resume completes `path` to the unbroken run's results and leaves no temporary file.
  void expect_resume_completes(const std::string& path) {
    const CliResult r = run_cli("run " + scenario_ + " -j 1 --resume -o " + path);
    ASSERT_EQ(r.code, 0) << r.err;
    const CliResult dump = dump_results_h5(path);
    ASSERT_EQ(dump.code, 0) << dump.err;
    EXPECT_EQ(dump.out, whole_);
    for (const auto& e : fs::directory_iterator(fs::path(path).parent_path()))
      EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }

  // How long the sweep runs once its file exists, on this machine now: a signal meant to land
  // mid-sweep is timed from it (a fixed delay outlasted the whole sweep on a quiet machine).
  double timed_sweep_ms() {
    const std::string path = dir_ + "/timed/r.h5";
    fs::create_directories(dir_ + "/timed");
    const pid_t pid = spawn({"run", scenario_, "-j", "1", "-o", path});
    wait_for_file(path, pid);
    const auto t0 = std::chrono::steady_clock::now();
    ::waitpid(pid, nullptr, 0);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }

  std::string dir_, scenario_, whole_;
};

TEST_F(SweepSurvives, SigkillAtTwentyRandomMomentsLeavesWholePointsAndResumeCompletesThem) {
  // The kills land at seeded fractions of the sweep's time.
  const double sweep_ms = timed_sweep_ms();
  std::mt19937 rng(20261124);
  std::uniform_real_distribution<double> fraction(0, 1);
  int partial = 0;
  for (int i = 0; i < 20; ++i) {
    const int ms = static_cast<int>(fraction(rng) * sweep_ms);
    SCOPED_TRACE("kill " + std::to_string(i) + " at " + std::to_string(ms) + " ms");
    const std::string path = dir_ + "/k" + std::to_string(i) + "/r.h5";
    fs::create_directories(fs::path(path).parent_path());
    const pid_t pid = spawn({"run", scenario_, "-j", "1", "-o", path});
    ASSERT_TRUE(wait_for_file(path, pid));
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    const int points = expect_whole_points(path);
    if (points < kPoints) ++partial;
    expect_resume_completes(path);
  }
  EXPECT_GT(partial, 0) << "no kill landed mid-sweep: the sweep is too short for this test";
  std::printf("%d of 20 kills left a partial file\n", partial);
}

TEST_F(SweepSurvives, SigintEndsTheSweepWithTheFileWholeAndSaysHowToResume) {
  // Ctrl-C as soon as the first simulated run's trace is written: the sweep has begun (its
  // handler is in place) and nearly every point is still to run. Timing the signal instead (half
  // a sweep timed before) let a sweep on a machine that had just become quieter finish first.
  const std::string path = dir_ + "/int/r.h5", err = dir_ + "/int.err", traces = dir_ + "/int-traces";
  fs::create_directories(dir_ + "/int");
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::execl(PLACESIM_BINARY, PLACESIM_BINARY, "run", scenario_.c_str(), "-j", "1", "--trace", traces.c_str(), "-o",
            path.c_str(), nullptr);
    ::_exit(127);
  }
  ASSERT_TRUE(wait_for_trace(traces, pid)) << "the sweep ended before its first trace";
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  const std::string text = read_all(err);
  ASSERT_EQ(WEXITSTATUS(status), 130) << "Ctrl-C after the sweep's first run did not end it\n" << text;
  EXPECT_NE(text.find("--resume"), std::string::npos) << text;
  EXPECT_NE(text.find(path), std::string::npos) << text;
  EXPECT_LT(expect_whole_points(path), kPoints);
  expect_resume_completes(path);
}

TEST_F(SweepSurvives, AnUnwritableOutputFailsBeforeTheFirstPoint) {
  std::ofstream(dir_ + "/plain") << "x";  // a "directory" that is a regular file: refused even as root
  const CliResult r = run_cli("run " + scenario_ + " --trace " + dir_ + "/traces -o " + dir_ + "/plain/r.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(dir_ + "/plain/r.h5: cannot write file: Not a directory"), std::string::npos) << r.err;
  // No trace: no point ran (the check comes before the scenario is even read).
  EXPECT_TRUE(!fs::exists(dir_ + "/traces") || fs::is_empty(dir_ + "/traces")) << "a point ran before the output was checked";
}

TEST_F(SweepSurvives, ASecondWriterOfTheSameOutputIsRefusedAndChangesNothing) {
  // The lock a running sweep holds (the same flock another placesim process would take).
  const std::string before = read_all(dir_ + "/whole.h5");
  const OutputLock running(dir_ + "/whole.h5");
  for (const std::string& flags : {std::string(" -o "), std::string(" --resume -o ")}) {
    const CliResult r = run_cli("run " + scenario_ + " --trace " + dir_ + "/traces" + flags + dir_ + "/whole.h5");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find(dir_ + "/whole.h5: another placesim (pid " + std::to_string(::getpid()) + ") is writing this file"),
              std::string::npos)
        << r.err;
  }
  EXPECT_EQ(read_all(dir_ + "/whole.h5"), before);
  EXPECT_TRUE(!fs::exists(dir_ + "/traces") || fs::is_empty(dir_ + "/traces")) << "a point ran";
}

TEST_F(SweepSurvives, ResumeRefusesAnotherScenariosFileAndChangesNothing) {
  const std::string other = write_file(dir_, "other.yaml", std::string(kSweep) + "seed: 2\n");
  const std::string before = read_all(dir_ + "/whole.h5");
  const CliResult r = run_cli("run " + other + " --resume --trace " + dir_ + "/traces -o " + dir_ + "/whole.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("whole.h5: was made from a different scenario or hardware text"), std::string::npos) << r.err;
  EXPECT_EQ(read_all(dir_ + "/whole.h5"), before);
  EXPECT_TRUE(fs::is_empty(dir_ + "/traces"));
}

TEST_F(SweepSurvives, ExportPrintsOneCsvRowPerRunWithTypedAxes) {
  const CliResult csv = run_cli("export " + dir_ + "/whole.h5 --csv");
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 1 + kPoints * kPlacers);
  EXPECT_EQ(csv.out.rfind("point_index,model.seq,model.batch,model.layers,placer,status,", 0), 0u) << csv.out.substr(0, 200);
  // The last axis varies fastest: point 1 is seq 32, batch 1, layers 2, numbers unquoted.
  EXPECT_NE(csv.out.find("\r\n1,32,1,2,single-device,ok,"), std::string::npos);
  const CliResult to_file = run_cli("export " + dir_ + "/whole.h5 --csv -o " + dir_ + "/whole.csv");
  ASSERT_EQ(to_file.code, 0) << to_file.err;
  EXPECT_EQ(read_all(dir_ + "/whole.csv"), csv.out);
  const CliResult no_format = run_cli("export " + dir_ + "/whole.h5");
  EXPECT_EQ(no_format.code, 2);
  EXPECT_NE(no_format.err.find("--csv"), std::string::npos) << no_format.err;
}

TEST_F(SweepSurvives, ThreadsAndMpiRanksGiveTheSameResults) {
  const CliResult one = run_cli("run " + scenario_ + " --json -j 1 -o " + dir_ + "/j1.h5");
  const CliResult two = run_cli("run " + scenario_ + " --json -j 2 -o " + dir_ + "/j2.h5");
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(dump_results_h5(dir_ + "/j2.h5").out, whole_);
#ifdef PLACESIM_HAVE_MPI
  // CI runs as root, which Open MPI refuses unless told, in a container, where its single-copy
  // shared memory transfers may be denied (it then warns on every message).
  const CliResult mpi = run_command(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
      "mpirun --allow-run-as-root --oversubscribe -n 2 " +
      std::string(PLACESIM_BINARY) + " run " + scenario_ + " --json -j 1 -o " + dir_ + "/mpi.h5");
  ASSERT_EQ(mpi.code, 0) << mpi.err;
  EXPECT_EQ(mpi.out, one.out);
  EXPECT_EQ(dump_results_h5(dir_ + "/mpi.h5").out, whole_);
#else
  GTEST_SKIP() << "built without MPI: threads compared only";
#endif
}

}  // namespace
