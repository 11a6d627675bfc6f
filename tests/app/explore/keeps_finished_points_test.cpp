// Nothing finished is lost (docs/results.md, "When a run cannot go on"): a write the device
// refuses (the file size limit, a full disk) keeps the last good results file and leaves no
// temporary or lock file; SIGTERM ends a long point within 5 s with the finished points written;
// an input error is found before the first point.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/run_cli.hpp"

namespace placesim::testing {
namespace {

namespace fs = std::filesystem;

const std::string kQuickstart = std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml";

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The sweep points a results file holds: distinct point indices of `export --csv`, which reads
// a file of no runs too.
size_t points_in(const std::string& path) {
  const CliResult r = run_cli("export '" + path + "' --csv");
  EXPECT_EQ(r.code, 0) << r.err;
  std::set<std::string> points;
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);  // the head
  while (std::getline(lines, line)) points.insert(line.substr(0, line.find(',')));
  return points.size();
}

// "holds N of the M sweep point(s) finished" in the error.
std::pair<size_t, size_t> held_of_finished(const std::string& err) {
  std::smatch m;
  if (!std::regex_search(err, m, std::regex("holds (\\d+) of the (\\d+) sweep point"))) return {99, 99};
  return {std::stoul(m[1]), std::stoul(m[2])};
}

// Each of the quickstart's two points takes seconds (a MILP), so each is written as it finishes;
// 18 KiB holds the file with one point (16.8 KiB), not with two.
TEST(KeepsFinishedPoints, PastTheFileSizeLimitTheLastGoodFileStays) {
  const std::string dir = temp_dir("fsize");
  const std::string out = dir + "/q.h5";
  const std::string run = std::string(PLACESIM_BINARY) + " run " + kQuickstart +
                          " --set 'placers=[single-device, {name: milp-sortinghat, node_limit: 10}]' -j 1 -o " + out;
  const CliResult r = run_command("bash -c \"ulimit -f 18; exec " + run + "\"");  // bash: KiB; dash: 512 B
  EXPECT_EQ(r.code, 1) << r.err;  // an output error, not a signal (SIGXFSZ) nor bad input
  EXPECT_NE(r.err.find("cannot write " + out + ": File too large"), std::string::npos) << r.err;
  const auto [held, finished] = held_of_finished(r.err);
  EXPECT_EQ(finished, 2u) << r.err;
  EXPECT_EQ(held, 1u) << r.err;
  EXPECT_EQ(files_in(dir), std::vector<std::string>{"q.h5"});  // no .tmp-PID, no .lock
  EXPECT_EQ(points_in(out), held);
  // Room again: --resume runs the point the file lacks.
  const CliResult resumed = run_command(run + " --resume");
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(points_in(out), 2u);
  fs::remove_all(dir);
}

// A real full disk: a 56 KiB tmpfs, where a mount is allowed (root with CAP_SYS_ADMIN).
TEST(KeepsFinishedPoints, OnAFullDiskTheLastGoodFileStays) {
  const std::string dir = temp_dir("fulldisk");
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=56k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                 << "); PastTheFileSizeLimitTheLastGoodFileStays runs the same failed write";
  const std::string out = dir + "/q.h5";
  const CliResult full = run_cli("run " + kQuickstart +
                                 " --set 'placers=[single-device, heft]' --set 'sweep.model.batch=[1, 2, 4, 8, 16, 32]'"
                                 " -j 1 -o " + out);
  EXPECT_EQ(full.code, 1) << full.err;
  EXPECT_NE(full.err.find("No space left on device"), std::string::npos) << full.err;
  EXPECT_EQ(files_in(dir), std::vector<std::string>{"q.h5"});
  EXPECT_EQ(points_in(out), held_of_finished(full.err).first);
  ::umount(dir.c_str());
  fs::remove_all(dir);
}

// SIGTERM (`timeout`, a batch system) ends the run within 5 s though the point under way takes
// far longer (a 400,000-op graph), with the point finished before it written.
TEST(KeepsFinishedPoints, SigtermEndsALongPointWithinFiveSeconds) {
  const std::string dir = temp_dir("sigterm");
  const std::string scenario = write_file(dir, "slow.yaml",
                                          "name: slow\nhardware: sortinghat-v100\n"
                                          "model: {generator: random-dag, depth: 200, width: 100}\n"
                                          "weights: resident\nplacers: [heft]\nbaseline: heft\n"
                                          "sweep: {model.depth: [200, 4000]}\n");
  const std::string out = dir + "/slow.h5", err = dir + "/err";
  const pid_t pid = spawn_placesim({"run", scenario, "-j", "1", "-o", out}, err);
  ASSERT_GE(pid, 0);
  // Once the first point is done (the progress line says so), the second runs for many seconds.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point give_up = Clock::now() + std::chrono::seconds(120);
  while (read_all(err).find("1/2 sweep points") == std::string::npos && Clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_LT(Clock::now(), give_up) << read_all(err);
  ::kill(pid, SIGTERM);
  const Clock::time_point sent = Clock::now();
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  const double took = std::chrono::duration<double>(Clock::now() - sent).count();
  EXPECT_LT(took, 7.0) << read_all(err);  // 5 s and the time to write
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status << "\n" << read_all(err);
  EXPECT_NE(read_all(err).find("terminating (SIGTERM)"), std::string::npos) << read_all(err);
  EXPECT_EQ(points_in(out), 1u);
  EXPECT_FALSE(fs::exists(out + ".lock"));
  fs::remove_all(dir);
}

// An input error at a later point (here a hardware file whose bandwidth overflows once its unit
// is applied) is found before the first point runs: nothing is run, nothing written.
TEST(KeepsFinishedPoints, AnInputErrorOfAnyPointIsFoundBeforeTheFirstRuns) {
  const std::string dir = temp_dir("late-error");
  const CliResult preset = run_cli("list presets sortinghat-v100");
  ASSERT_EQ(preset.code, 0);
  const std::string bad = std::regex_replace(preset.out, std::regex("memory_bw: 900GB/s"), "memory_bw: 1e300TB/s");
  write_file(dir, "fast.yaml", bad);
  const std::string scenario = write_file(
      dir, "late.yaml",
      "name: late\nhardware: sortinghat-v100\n"
      "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 16, phase: prefill}\n"
      "placers: [heft]\nbaseline: heft\nsweep: {hardware: [sortinghat-v100, sortinghat-v100, fast.yaml]}\n");
  const CliResult r = run_cli("run " + scenario + " -o " + dir + "/late.h5");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("fast.yaml:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a bandwidth '1e300TB/s' is beyond the largest representable value"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/late.h5"));
  EXPECT_EQ(r.err.find("sweep points"), std::string::npos) << "a point ran: " << r.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace placesim::testing
