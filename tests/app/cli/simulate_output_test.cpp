// `placesim simulate` on a cluster: the devices that held nothing make one line, so a run on
// thousands of GPUs prints what it used, not a line per device.
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

#include "sim/core/file_io.hpp"
#include "tests/support/run_cli.hpp"

namespace {

using placesim::testing::run_cli;
using placesim::testing::temp_dir;
using placesim::testing::write_file;

// `placesim simulate` on four DGX A100 nodes (32 GPUs and 8 host memories hold memory), written
// into `dir`: op a on n0.gpu0 sends 1 MB to op b on n3.gpu7.
std::string simulate_a_to_b(const std::string& dir) {
  const std::string hw = write_file(dir, "cluster.yaml", R"(node_templates: {dgx: {include: dgx-a100}}
nodes: [{template: dgx, count: 4}]
fabric: {type: switch, link: {bw: 22.5GB/s, latency: 0.5us, kind: ib}}
)");
  const std::string graph = write_file(dir, "tiny.json", R"({"name": "tiny", "nodes": [
  {"name": "a", "flops": 1e9, "bytes": 1e6, "output_bytes": 1e6}, {"name": "b", "flops": 1e9, "bytes": 1e6}],
  "edges": [{"src": "a", "dst": "b"}]})");
  const std::string plan = write_file(dir, "plan.json", R"({"placer": "hand", "devices": {"a": "n0.gpu0", "b": "n3.gpu7"}})");
  return "simulate --hardware " + hw + " --graph " + graph + " --plan " + plan + " --weights resident";
}

// Those two GPUs hold memory, the other 38 devices nothing.
TEST(SimulateOutput, DevicesThatHeldNothingMakeOneLine) {
  const std::string dir = temp_dir("simulate-output");
  const auto r = run_cli(simulate_a_to_b(dir));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("peak memory n0.gpu0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peak memory n3.gpu7"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("peak memory n1.gpu0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peak memory 0 B on the 38 other devices\n"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

// --trace-filter keeps the lanes and counter tracks it names: a 1 MB transfer from a on
// n0.gpu0 to b on n3.gpu7 crosses the fabric; keeping '*n3*' keeps b's compute lane and the links
// into node 3 (a link is named by its ends), not a's lane or node 0's links. Asked without
// --trace, or with a bad term, it is an error that names it, and nothing is written.
// The a-to-b run traced into dir/`file` and filtered to '*n3*': the file's bytes ("" when the
// run failed, which the test is told).
std::string traced_to_n3(const std::string& dir, const std::string& base, const std::string& file) {
  const auto r = run_cli(base + " --trace " + dir + "/" + file + " --trace-filter '*n3*'");
  EXPECT_EQ(r.code, 0) << r.err;
  return r.code == 0 ? placesim::read_input_file(dir + "/" + file) : "";
}

TEST(SimulateOutput, TraceFilterKeepsWhatItNames) {
  const std::string dir = temp_dir("simulate-trace-filter");
  const std::string base = simulate_a_to_b(dir);
  const std::string text = traced_to_n3(dir, base, "t.json");
  ASSERT_FALSE(text.empty());
  EXPECT_NE(text.find("\"n3.gpu7.compute\""), std::string::npos);
  EXPECT_EQ(text.find("\"n0.gpu0.compute\""), std::string::npos);
  EXPECT_NE(text.find("\"ph\":\"C\""), std::string::npos);  // node 3's links carried the bytes
  for (const char* bad : {" --trace-filter '*n3*'", " --trace t2.json --trace-filter time=5ms"}) {
    const auto e = run_cli(base + bad);
    EXPECT_NE(e.code, 0);
    EXPECT_NE(e.err.find("--trace-filter"), std::string::npos) << e.err;
  }
  EXPECT_FALSE(std::filesystem::exists("t2.json"));
  std::filesystem::remove_all(dir);
}

// A trace file named *.pftrace is Perfetto's protobuf (a Trace message: each packet is field 1,
// length-delimited, so the file starts with byte 0x0a), kept by the same filter: the kept lane's
// name is in it, the other's is not.
TEST(SimulateOutput, APftraceFileIsPerfettosProtobuf) {
  const std::string dir = temp_dir("simulate-pftrace");
  const std::string bytes = traced_to_n3(dir, simulate_a_to_b(dir), "t.pftrace");
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes[0], '\x0a');
  EXPECT_NE(bytes.find("n3.gpu7.compute"), std::string::npos);
  EXPECT_EQ(bytes.find("n0.gpu0.compute"), std::string::npos);
  EXPECT_EQ(bytes.find("traceEvents"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace

namespace {

// -v tells how long each step took, in order, on stderr (stdout stays the result alone); without
// it, nothing.
TEST(SimulateOutput, VerboseTimesEachStep) {
  const std::string dir = temp_dir("simulate-verbose");
  const std::string base = simulate_a_to_b(dir) + " --trace " + dir + "/t.pftrace";
  const auto r = run_cli(base + " -v --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t at = 0;
  for (const char* step : {"reading the machine and the graph: ", "reading the plan: ", "lowering the plan to tasks: ",
                           "simulating: ", "writing the trace's tasks and memory tracks: "}) {
    const std::size_t found = r.err.find(step, at);
    ASSERT_NE(found, std::string::npos) << step << " in\n" << r.err;
    at = found;
  }
  EXPECT_EQ(r.out.find("reading"), std::string::npos);
  const auto quiet = run_cli(base);
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("simulating: "), std::string::npos) << quiet.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
