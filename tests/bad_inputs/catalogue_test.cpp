// The bad-input catalogue (tests/bad_inputs/cases.yaml): every malformed input, given to the
// built `placesim` binary, exits with its expected code and names its location and culprit on
// stderr, ends on its own (no signal, no hang), and leaves no file behind. Each case runs in a
// fresh copy of tests/bad_inputs/, so what it writes is all that differs afterwards.
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include "../support/run_cli.hpp"

namespace {

namespace fs = std::filesystem;
using placesim::testing::read_all;
using placesim::testing::temp_dir;

const fs::path kCatalogue = fs::path(PLACESIM_SOURCE_DIR) / "tests" / "bad_inputs";

// Long enough for the slowest case on a loaded two-core machine; a hang ends here (exit 124).
constexpr int kTimeoutS = 120;

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

// Runs placesim with `args` (shell words) in `dir`, under a timeout.
Outcome run_in(const fs::path& dir, const std::string& args) {
  const std::string err = (dir.parent_path() / "stderr").string();
  const std::string cmd = "cd '" + dir.string() + "' && timeout -s KILL " + std::to_string(kTimeoutS) + " " +
                          PLACESIM_BINARY + " " + args + " >/dev/null 2>'" + err + "'";
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

TEST(BadInputs, EveryCaseExitsWithItsCodeAndLocatedMessageAndLeavesNoFile) {
  const YAML::Node cases = YAML::LoadFile((kCatalogue / "cases.yaml").string());
  ASSERT_GE(cases.size(), 80u);
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
    const std::set<std::string> before = files_under(dir);
    const Outcome o = run_in(dir, replace_all(run, "{case}", name));
    const std::vector<std::string> says =
        c["says"].IsSequence() ? c["says"].as<std::vector<std::string>>() : std::vector{c["says"].as<std::string>()};
    EXPECT_EQ(o.signal, 0) << name << ": killed by signal " << o.signal << " (a crash, or the " << kTimeoutS
                           << " s timeout): " << o.err;
    EXPECT_EQ(o.code, c["exit"].as<int>()) << name << ": " << o.err;
    for (const std::string& s : says)
      EXPECT_NE(o.err.find(s), std::string::npos) << name << ": expected '" << s << "' in: " << o.err;
    EXPECT_EQ(files_under(dir), before) << name << ": left a file behind";
    fs::remove_all(dir.parent_path());
  }
  fs::remove_all(root);
}

}  // namespace
