// Memory running out is a message and exit code 3 (docs/results.md, "When a run cannot go on"):
// never a crash, a hang or an `internal error`, and the results file, when there is one, opens.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "tests/support/run_cli.hpp"

namespace placesim::testing {
namespace {

// 20 address-space limits drawn from a fixed seed between 20 MB, where placesim cannot start its
// threads or load its modules, and 150 MB, where the sweep finishes (80 MB was enough here).
TEST(LowMemory, EverySeededLimitEndsWithTheResultsOrTheMessage) {
  const std::string dir = temp_dir("low-memory");
  std::mt19937 draw(20261206);
  std::uniform_int_distribution<int> kib(20'000, 150'000);
  int finished = 0, refused = 0;
  for (int k = 0; k < 20; ++k) {
    const int limit = kib(draw);
    const std::string out = dir + "/q" + std::to_string(k) + ".h5";
    const CliResult r = run_command("timeout -s KILL 120 bash -c \"ulimit -v " + std::to_string(limit) + "; exec " +
                                    PLACESIM_BINARY + " run " + PLACESIM_SOURCE_DIR +
                                    "/scenarios/quickstart.yaml --set 'placers=[single-device, heft, deepplan]' -j 2 -o " +
                                    out + "\"");
    SCOPED_TRACE("ulimit -v " + std::to_string(limit) + ": exit " + std::to_string(r.code) + "\n" + r.err);
    ASSERT_TRUE(r.code == 0 || r.code == 3);  // -1: a signal (timeout's KILL included)
    if (r.code == 0) {
      ++finished;
      continue;
    }
    ++refused;
    EXPECT_NE(r.err.find("placesim: error: out of memory"), std::string::npos);
    EXPECT_EQ(r.err.find("internal error"), std::string::npos);
    if (std::filesystem::exists(out)) {
      EXPECT_EQ(run_cli("export " + out + " --csv").code, 0);
    }
    EXPECT_FALSE(std::filesystem::exists(out + ".lock"));
  }
  // Both ends were reached: the limits are not all too small or all too large to test anything.
  EXPECT_GT(finished, 0);
  EXPECT_GT(refused, 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace placesim::testing
