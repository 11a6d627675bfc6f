// placesim plot renders every kind of figure to a valid, non-trivial PNG (and SVG by the output's
// extension), and a file of the wrong kind is a located error before any plotting, leaving the
// output as it was. Skips, saying why, where /usr/bin/python3 lacks matplotlib or h5py (both are
// in scripts/packages.txt).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/support/run_cli.hpp"

namespace placesim {
namespace {

namespace fs = std::filesystem;
using testing::read_all;
using testing::run_cli;

bool have_plotting() { return std::system("/usr/bin/python3 -c 'import matplotlib, h5py' >/dev/null 2>&1") == 0; }

std::uint32_t big_endian(const std::string& s, size_t at) {
  std::uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(s[at + i]);
  return v;
}

// A PNG: its signature, an IHDR chunk first, an IEND chunk last; a real figure's size.
void expect_png(const std::string& path) {
  SCOPED_TRACE(path);
  const std::string png = read_all(path);
  ASSERT_GT(png.size(), 10000u) << "a near-empty image";
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  EXPECT_GE(big_endian(png, 16), 400u);  // width
  EXPECT_GE(big_endian(png, 20), 300u);  // height
  EXPECT_EQ(png.substr(png.size() - 8, 4), "IEND");
}

class Plot : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!have_plotting()) return;
    dir_ = testing::temp_dir("plot");
    std::ofstream(dir_ + "/s.yaml") << "name: small\n"
                                       "hardware: sortinghat-v100\n"
                                       "model: {generator: transformer, arch: gpt2-large, layers: 2, batch: 1, seq: 32,"
                                       " phase: prefill}\n"
                                       "weights: host\n"
                                       "placers: [single-device, round-robin, heft, critical-path]\n"
                                       "baseline: single-device\n"
                                       "sweep:\n"
                                       "  model.seq: [32, 64]\n";
    const auto r = run_cli("run " + dir_ + "/s.yaml -o " + dir_ + "/r.h5 --trace " + dir_ + "/traces");
    ASSERT_EQ(r.code, 0) << r.err;
    std::ofstream(dir_ + "/serve.yaml") << "name: served\n"
                                           "hardware: sortinghat-v100\n"
                                           "model: {generator: transformer, arch: gpt2-large, layers: 2}\n"
                                           "weights: resident\n"
                                           "placers: [single-device, {name: megatron-tp, tp: 4}]\n"
                                           "requests: {rate: 10, prompt: 64, output: 16, count: 100}\n"
                                           "sweep:\n"
                                           "  requests.rate: [10, 40]\n";
    const auto served = run_cli("serve " + dir_ + "/serve.yaml -o " + dir_ + "/served.h5");
    ASSERT_EQ(served.code, 0) << served.err;
  }
  void SetUp() override {
    if (!have_plotting()) GTEST_SKIP() << "/usr/bin/python3 lacks matplotlib or h5py (Debian: python3-matplotlib, python3-h5py)";
  }
  static std::string dir_;
};
std::string Plot::dir_;

TEST_F(Plot, EveryKindRendersAPng) {
  const std::string validation = std::string(PLACESIM_SOURCE_DIR) + "/results/validate/validate-transformer-cpu.h5";
  const std::string cases[][2] = {{"speedup", dir_ + "/r.h5"},
                                  {"pareto", dir_ + "/r.h5"},
                                  {"predicted", dir_ + "/r.h5"},
                                  {"gantt", dir_ + "/traces/1-heft.json"},
                                  {"measured", validation},
                                  {"latency-load", dir_ + "/served.h5"},
                                  {"ttft-cdf", dir_ + "/served.h5"}};
  for (const auto& [kind, input] : cases) {
    SCOPED_TRACE(kind);
    const std::string out = dir_ + "/" + kind + ".png";
    const auto r = run_cli("plot " + kind + " " + input + " -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    expect_png(out);
  }
  // Two files side by side, against another baseline.
  const auto two = run_cli("plot speedup " + dir_ + "/r.h5 " + dir_ + "/r.h5 --baseline round-robin -o " + dir_ + "/two.png");
  ASSERT_EQ(two.code, 0) << two.err;
  expect_png(dir_ + "/two.png");
}

// The README's `placesim plot results/x.h5 -o plot.png`: a results file and no kind draws the
// speed-up bars.
TEST_F(Plot, AResultsFileWithoutAKindDrawsSpeedups) {
  const auto r = run_cli("plot " + dir_ + "/r.h5 -o " + dir_ + "/default.png");
  ASSERT_EQ(r.code, 0) << r.err;
  expect_png(dir_ + "/default.png");
}

TEST_F(Plot, SvgByTheOutputsExtension) {
  const auto r = run_cli("plot pareto " + dir_ + "/r.h5 -o " + dir_ + "/p.svg");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = read_all(dir_ + "/p.svg");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
}

// A copy of the binary with no share/placesim/plot beside it finds the source tree's script.
TEST_F(Plot, TheScriptIsFoundInTheSourceTreeWithoutABuildCopy) {
  const std::string bin = dir_ + "/elsewhere/bin";
  fs::create_directories(bin);
  fs::copy_file(PLACESIM_BINARY, bin + "/placesim", fs::copy_options::overwrite_existing);
  ASSERT_FALSE(fs::exists(bin + "/share/placesim/plot") || fs::exists(bin + "/../share/placesim/plot"));
  const std::string out = dir_ + "/from-source.png";
  const std::string cmd = bin + "/placesim plot predicted " + dir_ + "/r.h5 -o " + out + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  expect_png(out);
}

// A file of the wrong kind: exit 2 naming it, the output untouched and no temporary left.
TEST_F(Plot, AFileOfTheWrongKindIsAnErrorAndNothingIsOverwritten) {
  const std::string out = dir_ + "/kept.png", trace = dir_ + "/traces/0-heft.json";
  struct Case {
    std::string args, says;
  };
  const Case cases[] = {
      {"speedup " + trace, "results file " + trace + " is not an HDF5 file"},
      {"pareto " + dir_ + "/r.h5 " + dir_ + "/s.yaml", "results file " + dir_ + "/s.yaml is not an HDF5 file"},
      {"gantt " + dir_ + "/r.h5", dir_ + "/r.h5: this is an HDF5 results file; a Gantt chart draws a trace"},
      {"gantt " + dir_ + "/s.yaml", dir_ + "/s.yaml:1:1: expected a Chrome trace"},
      {"gantt " + dir_ + "/t.pftrace", dir_ + "/t.pftrace: this is a Perfetto protobuf trace (.pftrace)"},
      {"measured " + dir_ + "/r.h5", dir_ + "/r.h5: not a validation file of placesim validate (no `validation` table)"},
      {"speedup " + dir_ + "/r.h5 --baseline nobody", "baseline 'nobody' is not among the placers"},
      {"histogram " + dir_ + "/r.h5", "unknown plot kind 'histogram'"},
      {"latency-load " + dir_ + "/r.h5", dir_ + "/r.h5: no served request streams here: latency-load draws"},
  };
  std::ofstream(dir_ + "/t.pftrace") << std::string("\x0a\x02\x50\x01", 4);  // one packet: sequence 1
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    std::ofstream(out) << "kept";
    const auto r = run_cli("plot " + c.args + " -o " + out);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(read_all(out), "kept");
  }
  const auto pdf = run_cli("plot pareto " + dir_ + "/r.h5 -o " + dir_ + "/p.pdf");
  EXPECT_EQ(pdf.code, 2);
  EXPECT_NE(pdf.err.find(dir_ + "/p.pdf: expected an output file ending in .png or .svg"), std::string::npos) << pdf.err;
  EXPECT_FALSE(fs::exists(dir_ + "/p.pdf"));
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace placesim
