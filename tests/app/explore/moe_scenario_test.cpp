// The shipped mixture-of-experts scenario runs end to end, its sampled expert loads the same for
// the same seed: two runs print byte-identical JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;

TEST(MoeScenario, MixtralDecodeRunsAndRepeats) {
  const std::string s = std::string(PLACESIM_SOURCE_DIR) + "/scenarios/moe/mixtral-decode.yaml";
  const std::string dir = temp_dir("moe");
  const auto a = run_cli("run " + s + " --json -o " + dir + "/a.h5");
  const auto b = run_cli("run " + s + " --json -o " + dir + "/b.h5");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  const auto j = nlohmann::json::parse(a.out);
  ASSERT_EQ(j["runs"].size(), 4u);  // batch 1 and 8, single-device and heft
  for (const auto& r : j["runs"]) {
    EXPECT_EQ(r["status"], "ok") << r.dump();
    EXPECT_GT(r["makespan_s"].get<double>(), 0) << r.dump();
  }
}

}  // namespace
