// scheinfer keeps to the GPU memory it is given (`memory:`), not only to the device's: LLaMA-2 7B
// at batch 32 and 2048 positions on a DGX A100's gpu0 (80 GiB). The KV cache alone is
// 2 (K and V) x 32 layers x 32 sequences x 2048 positions x 4096 x 2 bytes = 34.4 GB, and every
// op but the FFN's stays on the GPU with it, so 16 GB cannot hold the plan whatever the FFN's
// rates: infeasible, saying so (it was `ok` at 39 GB). With 45 GB the plan fits what it was
// given, its resident FFN weights cut until the simulated peak does.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;
using placesim::testing::write_file;

TEST(ScheinferMemory, ThePlanKeepsToTheMemoryItIsGiven) {
  const std::string dir = temp_dir("scheinfer-memory");
  const std::string s = write_file(dir, "s.yaml",
                                   "name: m\nhardware: dgx-a100\n"
                                   "model: {generator: transformer, arch: llama2-7b, batch: 32, seq: 2048, phase: decode, dtype: fp16}\n"
                                   "weights: host\n"
                                   "placers: [{name: scheinfer, memory: 16GB}, {name: scheinfer, memory: 45GB}]\n");
  const auto r = run_cli("run " + s + " --json -o " + dir + "/r.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto runs = nlohmann::json::parse(r.out)["runs"];
  const double kv = 2.0 * 32 * 32 * 2048 * 4096 * 2;
  ASSERT_GT(kv, 16e9);
  EXPECT_EQ(runs[0]["status"], "infeasible");
  EXPECT_GT(runs[0]["peak_mem_bytes"]["gpu0"].get<double>(), kv);
  EXPECT_NE(runs[0]["message"].get<std::string>().find("over the 16.00 GB it may use"), std::string::npos) << runs[0];
  EXPECT_EQ(runs[1]["status"], "ok") << runs[1];
  EXPECT_LE(runs[1]["peak_mem_bytes"]["gpu0"].get<double>(), 45e9);
  EXPECT_GT(runs[1]["choices"]["gg_bytes"].get<double>(), 0);  // it still keeps FFN weights resident
}

}  // namespace
