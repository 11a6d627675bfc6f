// Golden test: tests/golden/two-layer.yaml (a two-layer model on two GPUs of the SortingHat V100
// preset) run through the `placesim` binary, checked against numbers worked out by hand from the
// preset (hw/presets/sortinghat-v100.yaml) and the roofline formula.
//
// Preset figures used:
//   V100: tensor peak 125e12 FLOP/s (the graph is fp16), memory 900e9 B/s, launch 5e-6 s.
//   PCIe: host -> bus0 (shared by gpu0 and gpu1) 12e9 B/s, 0.5 us; bus0 -> gpuN 12e9 B/s, 0.5 us.
//   NVLink gpu0 - gpu1: one link, 22.5e9 B/s, 0.5 us.
// Graph (two-layer.json): w1, w2 = 24e6 B each;
//   l1: 2.5e12 flop, 9e9 B moved,  output 4.5e6 B;  l2: 1.25e12 flop, 18e9 B, output 1e6 B.
// Roofline: d = launch + max(flops / peak, bytes / memory_bw)
//   d1 = 5e-6 + max(2.5e12/125e12 = 0.02,  9e9/900e9 = 0.01) = 0.020005 s (compute-bound)
//   d2 = 5e-6 + max(1.25e12/125e12 = 0.01, 18e9/900e9 = 0.02) = 0.020005 s (memory-bound)
//
// single-device on gpu0: w1 then w2 on the one copy queue gpu0.h2d, each alone on the route
//   (1 us of latency, then 24e6 / 12e9 = 2 ms):  w1 ends 0.002001, w2 ends 0.004002.
//   l1 runs 0.002001 .. 0.022006; l2 needs w2 and l1: 0.022006 .. 0.042011.   makespan 0.042011
//   gpu0 memory peaks while l2 runs: w1 + w2 + l1.out + l2.out = 24e6+24e6+4.5e6+1e6 = 53.5e6 B.
// round-robin, l1 on gpu0 and l2 on gpu1: w1@gpu0 and w2@gpu1 start together and share the
//   host->bus0 uplink: 6e9 B/s each, so both end at 1e-6 + 24e6/6e9 = 0.004001.
//   l1 runs 0.004001 .. 0.024006; its output crosses the NVLink in 0.5e-6 + 4.5e6/22.5e9 = 0.0002005
//   (arrives 0.0242065); l2 runs 0.0242065 .. 0.0442115.                        makespan 0.0442115
//   gpu0 peak: w1 + l1.out = 28.5e6 B; gpu1 peak: w2 + l1.out@gpu1 + l2.out = 29.5e6 B.
// critical-path: each op at its fastest device (a V100), no communication: d1 + d2 = 0.04001.
// speed-up of round-robin over single-device: 0.042011 / 0.0442115.
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;
constexpr double kRel = 1e-9;

nlohmann::json run_golden() {
  const std::string dir = temp_dir("golden");
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/tests/golden/two-layer.yaml --json -j 1 -o " + dir +
                         "/g.h5");
  EXPECT_EQ(r.code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(Golden, TwoLayerOnTwoGpusMatchesHandWorking) {
  const nlohmann::json j = run_golden();
  ASSERT_EQ(j["runs"].size(), 3u);
  const auto& single = j["runs"][0];
  const auto& rr = j["runs"][1];
  const auto& cp = j["runs"][2];

  EXPECT_EQ(single["placer"], "single-device{device=gpu0}");
  EXPECT_EQ(single["status"], "ok");
  EXPECT_NEAR(single["makespan_s"].get<double>(), 0.042011, 0.042011 * kRel);
  EXPECT_NEAR(single["peak_mem_bytes"]["gpu0"].get<double>(), 53.5e6, 53.5e6 * kRel);
  EXPECT_DOUBLE_EQ(single["speedup"].get<double>(), 1.0);

  EXPECT_EQ(rr["status"], "ok");
  EXPECT_NEAR(rr["makespan_s"].get<double>(), 0.0442115, 0.0442115 * kRel);
  EXPECT_NEAR(rr["peak_mem_bytes"]["gpu0"].get<double>(), 28.5e6, 28.5e6 * kRel);
  EXPECT_NEAR(rr["peak_mem_bytes"]["gpu1"].get<double>(), 29.5e6, 29.5e6 * kRel);
  EXPECT_NEAR(rr["speedup"].get<double>(), 0.042011 / 0.0442115, 1e-8);

  EXPECT_EQ(cp["placer"], "critical-path");
  EXPECT_TRUE(cp["makespan_s"].is_null());
  EXPECT_NEAR(cp["predicted_s"].get<double>(), 0.04001, 0.04001 * kRel);
}

// `placesim run` of two-layer.yaml with --trace (and `options`) in a fresh directory named for
// `dir`: the trace of the first point's round-robin run (null when the run failed or wrote none).
nlohmann::json round_robin_trace(const std::string& dir_name, const std::string& options) {
  const std::string dir = temp_dir(dir_name);
  const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/tests/golden/two-layer.yaml -j 1 --trace " + dir +
                         "/traces" + options + " -o " + dir + "/g.h5");
  EXPECT_EQ(r.code, 0) << r.err;
  if (r.code != 0) return nullptr;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/traces"))
    if (e.path().filename().string().rfind("0-round-robin", 0) == 0)
      return nlohmann::json::parse(placesim::testing::read_all(e.path().string()));
  return nullptr;
}

}  // namespace

// --trace writes one Chrome trace per simulated run: a lane per queue, and counter tracks of
// each link's bytes/s, so contention is visible. In the round-robin run both parameter copies
// share the host -> bus0 uplink, which then carries its full 12e9 B/s (6e9 for each copy),
// while each GPU's own x16 link carries 6e9 B/s.
TEST(Golden, TraceShowsLanesPerQueueAndLinkRates) {
  const auto j = round_robin_trace("golden-trace", "");
  ASSERT_FALSE(j.is_null()) << "no trace of round-robin's run";
  std::set<std::string> lanes;
  double uplink_peak = 0, gpu1_link_peak = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] != "C") continue;
    const std::string name = e["name"];
    const double rate = e["args"].begin()->get<double>();
    if (name.find("host->bus0") != std::string::npos) uplink_peak = std::max(uplink_peak, rate);
    if (name.find("bus0->gpu1") != std::string::npos) gpu1_link_peak = std::max(gpu1_link_peak, rate);
  }
  EXPECT_EQ(lanes, (std::set<std::string>{"gpu0.compute", "gpu1.compute", "gpu0.h2d", "gpu1.h2d", "gpu0->gpu1"}));
  EXPECT_NEAR(uplink_peak, 12e9, 12e9 * kRel);
  EXPECT_NEAR(gpu1_link_peak, 6e9, 6e9 * kRel);
}

// --trace-filter keeps what it names in every trace of a run: '*gpu1*' keeps gpu1's two lanes
// and its link's track (the uplink's track, host->bus0, is left out), nothing of gpu0.
TEST(Golden, TraceFilterKeepsTheNamedLanesAndTracksInEveryRun) {
  const auto j = round_robin_trace("golden-trace-filter", " --trace-filter '*gpu1*'");
  ASSERT_FALSE(j.is_null()) << "no trace of round-robin's run";
  std::set<std::string> lanes, tracks;
  for (const auto& e : j["traceEvents"]) {
    if (e["name"] == "thread_name") lanes.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "C") tracks.insert(e["name"].get<std::string>());
  }
  EXPECT_EQ(lanes, (std::set<std::string>{"gpu1.compute", "gpu1.h2d", "gpu0->gpu1"}));
  for (const std::string& t : tracks) EXPECT_NE(t.find("gpu1"), std::string::npos) << t;
  EXPECT_TRUE(tracks.count("bus0-gpu1:bus0->gpu1")) << "the link into gpu1 carried its copy";
}

// --trace-format pftrace writes the same runs' traces as Perfetto's protobuf: a .pftrace file
// where the JSON run writes a .json one, each a Trace message (it starts with packet field 1's
// key, byte 0x0a) naming the run's lanes.
TEST(Golden, TraceFormatPftraceWritesEveryRunAsProtobuf) {
  std::map<std::string, std::set<std::string>> stems;  // per format, the files' names less extension
  std::map<std::string, std::string> first_pftrace;
  for (const std::string format : {"json", "pftrace"}) {
    const std::string dir = temp_dir("golden-trace-format-" + format);
    const auto r = run_cli("run " + std::string(PLACESIM_SOURCE_DIR) + "/tests/golden/two-layer.yaml -j 1 --trace " + dir +
                           "/traces --trace-format " + format + " -o " + dir + "/g.h5");
    ASSERT_EQ(r.code, 0) << r.err;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/traces")) {
      EXPECT_EQ(e.path().extension().string(), "." + format) << e.path();
      stems[format].insert(e.path().stem().string());
      if (format == "pftrace") first_pftrace[e.path().stem().string()] = placesim::testing::read_all(e.path().string());
    }
  }
  EXPECT_FALSE(stems["json"].empty());
  EXPECT_EQ(stems["json"], stems["pftrace"]);
  for (const auto& [stem, bytes] : first_pftrace) {
    ASSERT_FALSE(bytes.empty()) << stem;
    EXPECT_EQ(bytes[0], '\x0a') << stem;
    EXPECT_NE(bytes.find("gpu0.compute"), std::string::npos) << stem;
  }
}
