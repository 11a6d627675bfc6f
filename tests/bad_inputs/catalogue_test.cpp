// The bad-input catalogue (tests/bad_inputs/cases.yaml): every malformed input, given to the
// built `placesim` binary, exits with its expected code and names its location and culprit on
// stderr, ends on its own (no signal, no hang), and leaves no file behind but those it may
// (`leaves`). Each case runs in a fresh copy of tests/bad_inputs/, so what it writes is all that
// differs afterwards. A case may send its standard output elsewhere (`stdout: /dev/full`) or end
// the run with SIGTERM once stderr shows some text (`term_when`), as `timeout` or a batch system
// would: it must then end within kTermS, by SIGTERM.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include "tests/support/run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::temp_dir;

const fs::path kCatalogue = fs::path(PLACESIM_SOURCE_DIR) / "tests" / "bad_inputs";

// Long enough for the slowest case on a loaded two-core machine; a hang ends here (exit 124).
constexpr int kTimeoutS = 120;
// How long a run may take to end after SIGTERM: its 5 s and the time to write what finished.
constexpr double kTermS = 7;

std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) files.insert(fs::relative(e.path(), dir).string());
  return files;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

struct Outcome {
  int code = -1;      // exit code, or -1 when killed by a signal
  int signal = 0;
  std::string err;
};

// Runs placesim with `args` (shell words) in `dir`, under a timeout, its standard output to `out`.
Outcome run_in(const fs::path& dir, const std::string& args, const std::string& out = "/dev/null") {
  const std::string err = (dir.parent_path() / "stderr").string();
  const std::string cmd = "cd '" + dir.string() + "' && timeout -s KILL " + std::to_string(kTimeoutS) + " " +
                          PLACESIM_BINARY + " " + args + " >'" + out + "' 2>'" + err + "'";
  const int status = std::system(cmd.c_str());
  Outcome o;
  if (WIFEXITED(status)) {
    o.code = WEXITSTATUS(status);
    if (o.code > 128) o.signal = o.code - 128;  // the shell reports a killed child as 128 + signal
  } else if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
  }
  o.err = read_all(err);
  return o;
}

// Runs placesim with `args` (plain words, no quoting) in `dir` and sends SIGTERM once its stderr
// shows `when`; a run ended by SIGTERM within kTermS reports exit 128 + SIGTERM, as a shell would.
Outcome terminate_in(const fs::path& dir, const std::string& args, const std::string& when) {
  std::vector<std::string> words;
  std::istringstream split(args);
  for (std::string w; split >> w;) words.push_back(w);
  const std::string err = (dir.parent_path() / "stderr").string();
  const pid_t pid = placesim::testing::spawn_placesim(words, err, dir.string());
  Outcome o;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point give_up = Clock::now() + std::chrono::seconds(kTimeoutS);
  int status = 0;
  while (read_all(err).find(when) == std::string::npos && Clock::now() < give_up) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {  // ended before the text showed: the case failed
      o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      o.err = read_all(err) + "\n(ended before stderr showed '" + when + "')";
      return o;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGTERM);
  const Clock::time_point sent = Clock::now();
  while (::waitpid(pid, &status, WNOHANG) != pid) {
    if (Clock::now() - sent > std::chrono::duration<double>(kTermS)) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      o.signal = SIGKILL;
      o.err = read_all(err) + "\n(still running " + std::to_string(kTermS) + " s after SIGTERM)";
      return o;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) o.code = 128 + SIGTERM;
  else if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  else o.code = WEXITSTATUS(status);
  o.err = read_all(err);
  return o;
}

TEST(BadInputs, EveryCaseExitsWithItsCodeAndLocatedMessageAndLeavesNoFile) {
  const YAML::Node cases = YAML::LoadFile((kCatalogue / "cases.yaml").string());
  ASSERT_GT(cases.size(), 230u);  // the catalogue only grows
  const fs::path root = temp_dir("bad-inputs");
  int n = 0;
  for (const YAML::Node& c : cases) {
    const std::string name = c["case"].as<std::string>();
    const std::string run = c["run"].as<std::string>();
    if (run.find("{case}") != std::string::npos) {
      ASSERT_TRUE(fs::exists(kCatalogue / name)) << name;
    }
    const fs::path dir = root / ("case" + std::to_string(n++)) / "inputs";
    fs::create_directories(dir);
    fs::copy(kCatalogue, dir, fs::copy_options::recursive);
    if (c["setup"]) {
      const Outcome s = run_in(dir, c["setup"].as<std::string>());
      ASSERT_EQ(s.code, 0) << name << ": setup failed: " << s.err;
    }
    std::set<std::string> before = files_under(dir);
    for (const YAML::Node& may : c["leaves"]) before.insert(may.as<std::string>());
    const std::string args = replace_all(run, "{case}", name);
    const Outcome o = c["term_when"] ? terminate_in(dir, args, c["term_when"].as<std::string>())
                                     : run_in(dir, args, c["stdout"] ? c["stdout"].as<std::string>() : "/dev/null");
    const std::vector<std::string> says =
        c["says"].IsSequence() ? c["says"].as<std::vector<std::string>>() : std::vector{c["says"].as<std::string>()};
    EXPECT_EQ(o.signal, 0) << name << ": killed by signal " << o.signal << " (a crash, or the " << kTimeoutS
                           << " s timeout): " << o.err;
    EXPECT_EQ(o.code, c["exit"].as<int>()) << name << ": " << o.err;
    for (const std::string& s : says)
      EXPECT_NE(o.err.find(s), std::string::npos) << name << ": expected '" << s << "' in: " << o.err;
    std::set<std::string> after = files_under(dir);
    for (const YAML::Node& may : c["leaves"]) after.insert(may.as<std::string>());  // whether or not it did
    EXPECT_EQ(after, before) << name << ": left a file behind";
    fs::remove_all(dir.parent_path());
  }
  fs::remove_all(root);
}

}  // namespace
