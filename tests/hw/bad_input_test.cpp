// Bad topology input: each case must fail with an InputError at the offending key or value
// ("t.yaml:line:column", counted by hand from the text below) saying what was expected.
#include <gtest/gtest.h>

#include "expect_input_error.hpp"
#include "hw/topology_yaml.hpp"

using namespace placesim;
using namespace placesim::hw;

namespace {

// Lines 1-3 of most cases: two switches s and t.
const std::string kTwo = "devices:\n  - {id: s, type: switch}\n  - {id: t, type: switch}\nlinks:\n";

TEST(HwBadInput, MalformedYaml) {
  // The second ':' on line 1, column 5, cannot start a map value.
  expect_input_error("a: b: c\n", "t.yaml:1:5", "malformed YAML");
}

TEST(HwBadInput, NotAMap) { expect_input_error("- just\n- a list\n", "t.yaml:1:1", "expected a topology map"); }

TEST(HwBadInput, UnknownTopLevelKey) {
  expect_input_error("name: x\ndevicez: []\n", "t.yaml:2:1", "unknown key 'devicez'");
}

TEST(HwBadInput, UnknownDeviceKey) {
  expect_input_error("devices:\n  - id: g\n    type: gpu\n    cores: 4\n", "t.yaml:4:5",
                     "unknown key 'cores' for a gpu device");
}

TEST(HwBadInput, UnknownTemplateKey) {
  expect_input_error("templates:\n  v: {type: gpu, colour: red}\ndevices: []\n", "t.yaml:2:18",
                     "unknown key 'colour' for a device template");
}

TEST(HwBadInput, UnknownTemplate) {
  expect_input_error("devices:\n  - id: g\n    template: v200\n", "t.yaml:3:15", "unknown template 'v200'");
}

TEST(HwBadInput, UnknownDeviceType) {
  expect_input_error("devices:\n  - id: x\n    type: tpu\n", "t.yaml:3:11",
                     "unknown device type 'tpu' (expected one of: gpu, cpu, host_memory, switch, nic)");
}

TEST(HwBadInput, MissingRequiredField) {
  expect_input_error("devices:\n  - {id: g, type: gpu, memory: 1GiB, memory_bw: 1GB/s}\n", "t.yaml:2:5",
                     "gpu device 'g' needs 'fp32'");
}

TEST(HwBadInput, DuplicateDeviceId) {
  expect_input_error("devices:\n  - {id: s, type: switch}\n  - {id: s, type: switch}\n", "t.yaml:3:10",
                     "duplicate device id 's' (first at t.yaml:2:5)");
}

TEST(HwBadInput, LinkToMissingDevice) {
  expect_input_error(kTwo + "  - {a: s, b: nowhere, bw: 1GB/s}\n", "t.yaml:5:15", "unknown device 'nowhere'");
}

TEST(HwBadInput, LinkToItself) {
  expect_input_error(kTwo + "  - {a: s, b: s, bw: 1GB/s}\n", "t.yaml:5:15", "two different devices");
}

TEST(HwBadInput, ZeroBandwidth) {
  expect_input_error(kTwo + "  - {a: s, b: t, bw: 0GB/s}\n", "t.yaml:5:22", "expected a positive bandwidth, got '0GB/s'");
}

TEST(HwBadInput, NegativeBandwidth) {
  expect_input_error(kTwo + "  - {a: s, b: t, bw_ab: -1GB/s, bw_ba: 1GB/s}\n", "t.yaml:5:25",
                     "expected a positive bandwidth, got '-1GB/s'");
}

TEST(HwBadInput, BandwidthWithoutRateUnit) {
  expect_input_error(kTwo + "  - {a: s, b: t, bw: 12GB}\n", "t.yaml:5:22", "unknown unit in '12GB'");
}

TEST(HwBadInput, ZeroCount) {
  expect_input_error(kTwo + "  - {a: s, b: t, bw: 1GB/s, count: 0}\n", "t.yaml:5:36",
                     "expected a positive whole number, got '0'");
}

TEST(HwBadInput, NegativeLatency) {
  expect_input_error(kTwo + "  - {a: s, b: t, bw: 1GB/s, latency: -1us}\n", "t.yaml:5:38",
                     "expected a non-negative duration such as 1us, got '-1us'");
}

TEST(HwBadInput, UnknownLinkKey) {
  expect_input_error(kTwo + "  - {a: s, b: t, bandwidth: 1GB/s}\n", "t.yaml:5:18", "unknown key 'bandwidth'");
}

TEST(HwBadInput, NegativeDispatch) {
  expect_input_error(
      "devices:\n  - {id: g, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS, dispatch: -20us}\n",
      "t.yaml:2:81", "expected a non-negative duration such as 1us, got '-20us'");
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, dispatch: fast}\n",
                     "t.yaml:2:77", "expected a duration such as a number with a unit, got 'fast'");
}

// A CPU on line 2 whose contention value starts at column 79.
std::string cpu_with_contention(const std::string& curve) {
  return "devices:\n  - {id: c, type: cpu, cores: 4, fp32: 1TFLOPS, memory_bw: 1GB/s, contention: " + curve + "}\n";
}

TEST(HwBadInput, ContentionNotAList) {
  const std::string expected = "expected a list of per-core slowdown factors >= 1 such as [1, 1.1, 1.3]";
  expect_input_error(cpu_with_contention("1.2"), "t.yaml:2:79", expected);
  expect_input_error(cpu_with_contention("{k1: 1}"), "t.yaml:2:79", expected);
  expect_input_error(cpu_with_contention("[]"), "t.yaml:2:79", expected);
}

TEST(HwBadInput, ContentionFactorNotAPositiveNumber) {
  // Each bad factor is the second item, at column 83.
  const std::string expected = "expected a slowdown factor >= 1 (1 = no slowdown) such as 1.2, got ";
  expect_input_error(cpu_with_contention("[1, fast]"), "t.yaml:2:83", expected + "'fast'");
  expect_input_error(cpu_with_contention("[1, 0]"), "t.yaml:2:83", expected + "'0'");
  expect_input_error(cpu_with_contention("[1, -1.5]"), "t.yaml:2:83", expected + "'-1.5'");
  expect_input_error(cpu_with_contention("[1, .inf]"), "t.yaml:2:83", expected + "'.inf'");
  expect_input_error(cpu_with_contention("[1, [2]]"), "t.yaml:2:83", expected + "'[2]'");
}

TEST(HwBadInput, RouteThroughUnlinkedDevices) {
  expect_input_error("devices:\n  - {id: a, type: switch}\n  - {id: b, type: switch}\n  - {id: c, type: switch}\n"
                     "links:\n  - {a: a, b: b, bw: 1GB/s}\n  - {a: b, b: c, bw: 1GB/s}\nroutes:\n  - [a, c]\n",
                     "t.yaml:9:9", "no link joins 'a' and 'c'");
}

TEST(HwBadInput, GpuWithoutRouteToHostMemory) {
  expect_input_error("devices:\n  - {id: host, type: host_memory, memory: 1GiB}\n"
                     "  - {id: gpu0, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n",
                     "t.yaml:3:5", "gpu 'gpu0' has no route to any host memory");
}

TEST(HwBadInput, UnknownNetworkModel) {
  expect_input_error("network: fast\ndevices: []\n", "t.yaml:1:10", "expected 'links' (transfers share");
}

TEST(HwBadInput, UnknownMemoryModel) {
  expect_input_error("memory: lots\ndevices: []\n", "t.yaml:1:9", "expected 'limited' (each device holds");
}

TEST(HwBadInput, UnknownPresetOrFile) {
  const Yaml spec = Yaml::load_string("hardware: nope\n", "s.yaml").at("hardware");
  try {
    load_topology(spec);
    ADD_FAILURE() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().str(), "s.yaml:1:11");
    EXPECT_NE(std::string(e.what()).find("unknown preset or file 'nope' (presets: asymgroup-s0, "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
