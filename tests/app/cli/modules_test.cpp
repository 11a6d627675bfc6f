// The heavy libraries are loaded only by the commands that use them (sim/core/module.hpp): the
// dynamic loader's own record of the files it opens (LD_DEBUG=files, on stderr) shows which.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_command;
using placesim::testing::temp_dir;
using placesim::testing::write_file;

const std::vector<std::string> kHeavy = {"libplacesim_", "libhdf5", "libCbc", "libonnx", "libprotobuf", "libmpi",
                                         "libcudart", "libcublas", "libopenblas"};

// The loader's record of `args`: the files it opened, one "file=NAME" per line.
std::string loaded_by(const std::string& args) {
  const auto r = run_command("LD_DEBUG=files " + std::string(PLACESIM_BINARY) + " " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.err.substr(0, 2000);
  return r.err;
}

TEST(Modules, HelpAndListsLoadNoHeavyLibrary) {
  for (const std::string args : {"--help", "list placers", "list presets", "run --help"}) {
    const std::string files = loaded_by(args);
    ASSERT_NE(files.find("file=libfmt"), std::string::npos) << "LD_DEBUG recorded nothing for " << args;
    for (const std::string& lib : kHeavy) EXPECT_EQ(files.find("file=" + lib), std::string::npos) << args << " loads " << lib;
  }
}

TEST(Modules, ASweepLoadsTheResultsModuleAndNotTheSolver) {
  const std::string dir = temp_dir("modules");
  const std::string s = write_file(dir, "s.yaml",
                                   "hardware: sortinghat-v100\n"
                                   "model: {generator: transformer, arch: gpt2-large, layers: 1, batch: 1, seq: 16, phase: prefill}\n"
                                   "placers: [single-device, heft]\n");
  const std::string files = loaded_by("run " + s + " -o " + dir + "/r.h5");
  EXPECT_NE(files.find("libplacesim_h5.so"), std::string::npos);
  EXPECT_NE(files.find("file=libhdf5"), std::string::npos);
  EXPECT_EQ(files.find("libplacesim_cbc.so"), std::string::npos);
  EXPECT_EQ(files.find("file=libCbc"), std::string::npos);
}

}  // namespace
