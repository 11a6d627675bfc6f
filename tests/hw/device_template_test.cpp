// Devices that are a template and an id alone are read once per template and copied
// (hw/device_yaml.hpp, TemplateDevices): each copy must be the device read field by field, with
// its own id and location, and an error in the template must still name the first device's file
// position the way a field-by-field read does. Expected figures are the template's, converted by
// hand.
#include <gtest/gtest.h>

#include <vector>

#include "expect_input_error.hpp"
#include "hw/topology_yaml.hpp"

namespace {

using placesim::hw::Device;
using placesim::hw::load_topology_text;

// Line 1 "templates:", line 2 the template `t`, lines 4-6 the devices: a and b a template and an
// id alone, c with `model` too (so it is read field by field).
constexpr const char* kFile =
    "templates:\n"
    "  t: {type: cpu, cores: 4, sockets: 2, fp32: 2TFLOPS, memory_bw: 40GB/s, core_memory_bw: 12GB/s,\n"
    "      contention: [1, 1.25], launch: 3us, dispatch: 20us, cache: 1MiB, cache_bw: 200GB/s, overlap: 0.5}\n"
    "devices:\n"
    "  - {id: a, template: t}\n"
    "  - {id: b, template: t}\n"
    "  - {id: c, template: t, model: t}\n";

void expect_template_figures(const Device& d) {
  EXPECT_EQ(d.model, "t") << d.id;
  EXPECT_EQ(d.cores, 4) << d.id;
  EXPECT_EQ(d.sockets, 2) << d.id;
  EXPECT_EQ(d.fp32_flops, 2e12) << d.id;
  EXPECT_EQ(d.memory_bw, 40e9) << d.id;
  EXPECT_EQ(d.core_memory_bw, 12e9) << d.id;
  EXPECT_EQ(d.contention, (std::vector<double>{1, 1.25})) << d.id;
  EXPECT_DOUBLE_EQ(d.launch_s, 3e-6) << d.id;
  EXPECT_DOUBLE_EQ(d.dispatch_s, 20e-6) << d.id;
  EXPECT_EQ(d.cache_bytes, 1048576) << d.id;
  EXPECT_EQ(d.cache_bw, 200e9) << d.id;
  EXPECT_EQ(d.overlap, 0.5) << d.id;
}

TEST(DeviceTemplate, ACopyOfATemplateIsTheDeviceReadFieldByField) {
  const auto t = load_topology_text(kFile, "t.yaml");
  ASSERT_EQ(t.devices.size(), 3u);
  for (const Device& d : t.devices) expect_template_figures(d);
  EXPECT_EQ(t.devices[0].id, "a");
  EXPECT_EQ(t.devices[1].id, "b");
  EXPECT_EQ(t.devices[2].id, "c");
  EXPECT_EQ(t.devices[0].loc.line, 5);
  EXPECT_EQ(t.devices[1].loc.line, 6);
  EXPECT_EQ(t.devices[2].loc.line, 7);
  // The copy and the field-by-field read agree on what neither sets in the file.
  EXPECT_EQ(t.devices[1].h2d_engines, t.devices[2].h2d_engines);
  EXPECT_EQ(t.devices[1].streams, t.devices[2].streams);
  EXPECT_EQ(t.devices[1].concurrent_kernels, t.devices[2].concurrent_kernels);
}

// A bad value in the template fails at the first device that uses it, pointing at the value.
TEST(DeviceTemplate, ABadTemplateValueFailsAtTheValue) {
  expect_input_error("templates:\n  t: {type: cpu, cores: 0, fp32: 1TFLOPS, memory_bw: 1GB/s}\n"
                     "devices:\n  - {id: a, template: t}\n  - {id: b, template: t}\n",
                     "t.yaml:2:25", "expected a positive whole number, got '0'");
}

}  // namespace
