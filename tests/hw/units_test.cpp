// Human units in topology files reach the Device and Link fields in base units (bytes, bytes/s,
// seconds, FLOP/s). Expectations are the unit definitions worked by hand.
#include <gtest/gtest.h>

#include "hw/topology_yaml.hpp"

using namespace placesim::hw;

namespace {

const char* kUnits = R"(
templates:
  big: {type: gpu, memory: 32GiB, memory_bw: 900GB/s, fp32: 15.7TFLOPS, tensor: 125TFLOPS, launch: 5us}
devices:
  - {id: host, type: host_memory, memory: 1.5TB}
  - {id: gpu0, template: big, int8: 130TOPS, dispatch: 45.8us}
links:
  - {a: host, b: gpu0, bw: 16GB/s, latency: 1.2ms}
  - {a: host, b: gpu0, bw_ab: 100Gb/s, bw_ba: 1GiB/s, latency: 200ns, count: 3}
)";

TEST(HwUnits, DeviceFieldsInBaseUnits) {
  const Topology t = load_topology_text(kUnits, "t.yaml");
  const Device& g = t.devices[t.index("gpu0")];
  EXPECT_EQ(g.memory, 32.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(g.memory_bw, 900e9);
  EXPECT_DOUBLE_EQ(g.fp32_flops, 15.7e12);
  EXPECT_EQ(g.tensor_flops, 125e12);
  EXPECT_EQ(g.int8_ops, 130e12);
  EXPECT_DOUBLE_EQ(g.launch_s, 5e-6);
  EXPECT_DOUBLE_EQ(g.dispatch_s, 45.8e-6);
  EXPECT_EQ(g.model, "big");  // the template's name when no model is given
  EXPECT_EQ(t.devices[t.index("host")].memory, 1.5e12);
}

TEST(HwUnits, LinkRatesAndLatencies) {
  const Topology t = load_topology_text(kUnits, "t.yaml");
  ASSERT_EQ(t.links.size(), 2u);
  EXPECT_EQ(t.links[0].bw_ab, 16e9);
  EXPECT_EQ(t.links[0].bw_ba, 16e9);
  EXPECT_DOUBLE_EQ(t.links[0].latency_s, 1.2e-3);
  EXPECT_EQ(t.links[0].id, "host-gpu0");
  // count 3: three parallel links, so three times each direction's rate; 100 Gb/s = 12.5 GB/s.
  EXPECT_EQ(t.links[1].count, 3);
  EXPECT_EQ(t.links[1].bw_ab, 3 * 12.5e9);
  EXPECT_EQ(t.links[1].bw_ba, 3 * 1073741824.0);
  EXPECT_DOUBLE_EQ(t.links[1].latency_s, 200e-9);
  EXPECT_EQ(t.links[1].id, "host-gpu0#2");  // the default id, made unique
}

}  // namespace
