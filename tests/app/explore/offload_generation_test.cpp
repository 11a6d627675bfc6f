// A whole generation with the offload placers: their decode plans keep the point's weights mode,
// so scheinfer streams its CG weights in every decode step (its parameter bytes grow with each
// step generated), and llama.cpp's layer offload, which streams nothing, copies no weight at all.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(OffloadGeneration, ScheinferStreamsItsCopiedWeightsEveryDecodeStep) {
  const std::string dir = temp_dir("offload-gen");
  auto parameter_bytes = [&](int output) {
    const auto w = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/scenarios/scheinfer/threads.yaml --json -o " + dir +
                           "/a.h5 --set model.layers=2 --set model.seq=32 --set model.phase=generate --set model.output=" +
                           std::to_string(output) + " --set sweep={} --set \"hardware.devices=[{id: gpu0, memory: 1.5GB}]\"" +
                           " --set \"placers=[scheinfer, llamacpp-offload, fiddler]\"");
    EXPECT_EQ(w.code, 0) << w.err;
    if (w.code != 0) return std::map<std::string, double>{};
    std::map<std::string, double> bytes;
    const nlohmann::json doc = nlohmann::json::parse(w.out);
    for (const auto& r : doc["runs"]) {
      EXPECT_EQ(r["status"], "ok") << r.dump();
      bytes[r["placer"].get<std::string>()] = r["comm_bytes"]["by_kind"].value("parameter", 0.0);
    }
    return bytes;
  };
  const auto one = parameter_bytes(2), three = parameter_bytes(4);  // 1 and 3 decode steps
  ASSERT_EQ(one.size(), 3u);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_GT(one.at("scheinfer"), 0);
  // Each decode step streams its CG weights again: two more steps, more bytes.
  const double per_step = (three.at("scheinfer") - one.at("scheinfer")) / 2;
  EXPECT_GT(per_step, 0);
  EXPECT_EQ(one.at("llamacpp-offload"), 0);
  EXPECT_EQ(three.at("llamacpp-offload"), 0);
}

}  // namespace
