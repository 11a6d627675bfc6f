// What a newcomer meets when a command line is short of an argument: the usage line, in the
// words it uses (not "the option '--files' is required"), and --help that lists a command's
// arguments apart from its options.
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"

namespace placesim {
namespace {

using testing::run_cli;

TEST(Usage, AMissingArgumentIsNamedWithTheUsageLine) {
  const struct {
    std::string args, says;
  } cases[] = {
      {"run", "placesim run: missing scenario: usage: placesim run SCENARIO.yaml"},
      {"plot speedup -o x.png", "placesim plot: missing files: usage: placesim plot [KIND] FILE..."},
      {"compare", "placesim compare: missing results: usage: placesim compare RESULTS.h5..."},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const auto r = run_cli(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("is required but missing"), std::string::npos) << r.err;
  }
}

TEST(Usage, HelpListsArgumentsApartFromOptions) {
  const auto r = run_cli("plot --help");
  ASSERT_EQ(r.code, 0) << r.err;
  const size_t arguments = r.out.find("arguments:"), options = r.out.find("options:");
  ASSERT_NE(arguments, std::string::npos) << r.out;
  ASSERT_NE(options, std::string::npos) << r.out;
  EXPECT_LT(arguments, options);
  EXPECT_EQ(r.out.find("--kind"), std::string::npos) << r.out;  // not offered as an option
  EXPECT_NE(r.out.find("  kind "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--output"), std::string::npos) << r.out;
}

// The README's my-study as it once was: megatron-tp with tp = 2 on four GPUs makes two replicas,
// which cannot split a batch of 1. --dry-run refuses it as the run would, at the placer's `tp`
// and naming the point; tp = 4 (the README's now) passes.
TEST(Usage, DryRunChecksEachPlacersOptionsAtEveryPoint) {
  const std::string dir = testing::temp_dir("dry-run");
  const auto scenario = [&](int tp) {
    return testing::write_file(dir, "s" + std::to_string(tp) + ".yaml",
                               "name: my-study\nhardware: sortinghat-v100\n"
                               "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32, phase: prefill}\n"
                               "weights: host\nplacers: [single-device, {name: megatron-tp, tp: " +
                                   std::to_string(tp) + "}]\nsweep:\n  model.batch: [2, 1]\n");
  };
  const auto bad = run_cli("run " + scenario(2) + " --dry-run");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("s2.yaml:5:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("tp = 2 makes 2 data-parallel replicas, which do not split the batch of 1 evenly"),
            std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("at point 1 (model.batch=1)"), std::string::npos) << bad.err;
  const auto good = run_cli("run " + scenario(4) + " --dry-run");
  EXPECT_EQ(good.code, 0) << good.err;
}

// Output that cannot be written (a full disk: /dev/full) fails the command with a message,
// where it used to exit 0 having written nothing (a table, CSV or JSON on stdout alike).
TEST(Usage, AnUnwritableStdoutIsAnError) {
  const std::string scenario = std::string(PLACESIM_SOURCE_DIR) + "/scenarios/quickstart.yaml";
  for (const std::string& args : std::vector<std::string>{"list presets", "list placers --json", "run " + scenario + " --dry-run --json"}) {
    const auto r = testing::run_command("(" + std::string(PLACESIM_BINARY) + " " + args + " > /dev/full)");
    EXPECT_EQ(r.code, 1) << args;
    // The reason where the failing write is the last flush's ("No space left on device"); an
    // earlier one's errno is gone by the time placesim checks.
    EXPECT_NE(r.err.find("placesim: error: cannot write standard output: "), std::string::npos) << args << ": " << r.err;
  }
  EXPECT_EQ(testing::run_command(std::string(PLACESIM_BINARY) + " list presets > /dev/null").code, 0);
}

}  // namespace
}  // namespace placesim
