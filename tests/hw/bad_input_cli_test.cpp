// Bad hardware files through the command line: `placesim run` on a scenario whose hardware file
// has a bad link bandwidth, dispatch cost or contention curve exits 2 with one line naming the
// hardware file, line and column and what was expected, and writes no results file.
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

// Lines 1-5 of the bandwidth cases; each adds its bad link on line 6.
const std::string kBase =
    "devices:\n"
    "  - {id: host, type: host_memory, memory: 1GiB}\n"
    "  - {id: gpu0, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n"
    "  - {id: cpu0, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s}\n"
    "links:\n";

struct BadHardware {
  const char* what;
  std::string yaml;
  std::string expect;  // "hw.yaml:line:column: what was expected", counted by hand
};

TEST(HwBadInputCli, ExitsTwoNamingTheHardwareFileLineAndColumn) {
  const std::vector<BadHardware> cases = {
      {"zero bandwidth", kBase + "  - {a: host, b: gpu0, bw: 0GB/s}\n",
       "hw.yaml:6:28: expected a positive bandwidth, got '0GB/s'"},
      {"negative bandwidth", kBase + "  - {a: host, b: gpu0, bw_ab: -1GB/s, bw_ba: 1GB/s}\n",
       "hw.yaml:6:31: expected a positive bandwidth, got '-1GB/s'"},
      {"negative dispatch cost",
       "devices:\n  - {id: host, type: host_memory, memory: 1GiB}\n"
       "  - {id: gpu0, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS, dispatch: -5us}\n"
       "links:\n  - {a: host, b: gpu0, bw: 1GB/s}\n",
       "hw.yaml:3:84: expected a non-negative duration such as 1us, got '-5us'"},
      {"contention not a list",
       "devices:\n  - {id: host, type: host_memory, memory: 1GiB}\n"
       "  - {id: cpu0, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, contention: 2}\n"
       "links:\n  - {a: host, b: cpu0, bw: 1GB/s}\n",
       "hw.yaml:3:82: expected a list of per-core slowdown factors >= 1"},
      {"contention factor not a positive number",
       "devices:\n  - {id: host, type: host_memory, memory: 1GiB}\n"
       "  - {id: cpu0, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, contention: [1, -2]}\n"
       "links:\n  - {a: host, b: cpu0, bw: 1GB/s}\n",
       "hw.yaml:3:86: expected a slowdown factor >= 1 (1 = no slowdown) such as 1.2, got '-2'"},
  };
  const std::string dir = temp_dir("hw-bad");
  std::ofstream(dir + "/s.yaml") << "hardware: hw.yaml\nmodel: {generator: lstm, layers: 1, seq: 2}\n"
                                    "weights: resident\nplacers: [single-device]\n";
  for (const BadHardware& c : cases) {
    std::ofstream(dir + "/hw.yaml") << c.yaml;
    const std::string out = dir + "/should-not-exist.h5";
    const auto r = run_cli("run " + dir + "/s.yaml -o " + out);
    EXPECT_EQ(r.code, 2) << c.what << ": " << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.what << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.what << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.what;
  }
}

}  // namespace
