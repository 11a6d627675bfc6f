// A host memory's bandwidth (its NUMA node's DRAM) as a resource its copies share (docs/execution.md,
// "Resources"): each copy from it uses its bytes of the memory as well as of every link.
//
// Host memory of 10 GB/s; gpu0 and gpu1 each on their own 20 GB/s link from it, no latency;
// one 1 GB parameter for an op on each GPU.
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

std::string topology(const std::string& host_bw) {
  return "devices:\n  - {id: host, type: host_memory, memory: 64GiB" + host_bw + "}\n"
         "  - {id: gpu0, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}\n"
         "  - {id: gpu1, type: gpu, memory: 16GiB, memory_bw: 900GB/s, fp32: 10TFLOPS}\n"
         "links:\n  - {a: host, b: gpu0, bw: 20GB/s}\n  - {a: host, b: gpu1, bw: 20GB/s}\n";
}

constexpr const char* kTwoParams = R"({"nodes": [{"name": "w0", "param_bytes": 1e9}, {"name": "w1", "param_bytes": 1e9},
                                       {"name": "a", "durations": {"gpu0": 0, "gpu1": 0}},
                                       {"name": "b", "durations": {"gpu0": 0, "gpu1": 0}}],
                             "edges": [{"src": "w0", "dst": "a"}, {"src": "w1", "dst": "b"}]})";

TEST(HostMemoryBandwidth, CopiesFromOneHostMemoryShareItsBandwidth) {
  // Both copies at once: each link allows 20 GB/s, the memory 10 GB/s for both: 5 GB/s each,
  // 1 GB / 5 GB/s = 0.2 s. Without the memory's bandwidth each would take 1 GB / 20 GB/s = 0.05 s.
  const Problem p = problem(kTwoParams, hw::load_topology_text(topology(", memory_bw: 10GB/s"), "t.yaml"));
  const Outcome both = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu1"}}));
  EXPECT_NEAR(both.end("w0@gpu0"), 0.2, tol(0.2));
  EXPECT_NEAR(both.end("w1@gpu1"), 0.2, tol(0.2));
  const Problem unbounded = problem(kTwoParams, hw::load_topology_text(topology(""), "t.yaml"));
  EXPECT_NEAR(run(unbounded, plan_for(unbounded, {{"a", "gpu0"}, {"b", "gpu1"}})).end("w1@gpu1"), 0.05, tol(0.05));
}

TEST(HostMemoryBandwidth, OneCopyIsHeldToTheSlowerOfMemoryAndLink) {
  // Both ops on gpu0: its one H2D engine queue runs the copies one after the other, each at
  // min(20, 10) = 10 GB/s: 0.1 s, then 0.2 s.
  const Problem p = problem(kTwoParams, hw::load_topology_text(topology(", memory_bw: 10GB/s"), "t.yaml"));
  const Outcome serial = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}}));
  EXPECT_NEAR(serial.end("w0@gpu0"), 0.1, tol(0.1));
  EXPECT_NEAR(serial.end("w1@gpu0"), 0.2, tol(0.2));
}

}  // namespace

namespace {

// A NUMA node's memory with no bandwidth is no memory at all: the file is wrong, not the run.
TEST(HostMemoryBandwidth, ZeroOrNegativeBandwidthIsAnInputError) {
  for (const char* bw : {"0GB/s", "-5GB/s"}) {
    try {
      hw::load_topology_text(std::string("devices:\n  - {id: host, type: host_memory, memory: 1GiB, memory_bw: ") + bw +
                                 "}\n",
                             "t.yaml");
      ADD_FAILURE() << bw << ": expected an InputError";
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().str(), "t.yaml:2:60") << e.what();
      EXPECT_NE(std::string(e.what()).find("expected a positive bandwidth"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
