// The roofline fields of a compute device in a hardware file: cache with cache_bw, overlap, and
// a CPU's core_memory_bw.
#include <gtest/gtest.h>

#include "expect_input_error.hpp"
#include "hw/topology_yaml.hpp"

namespace {

using placesim::hw::load_topology_text;

TEST(CacheOverlapYaml, ReadWithUnits) {
  const auto t = load_topology_text(
      "devices:\n  - {id: cpu, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 10GB/s, cache: 512KiB, "
      "cache_bw: 80GB/s, overlap: 0.25, core_memory_bw: 6GB/s}\n",
      "t.yaml");
  const auto& d = t.devices.at(0);
  EXPECT_EQ(d.core_memory_bw, 6e9);
  EXPECT_EQ(d.cache_bytes, 524288);
  EXPECT_EQ(d.cache_bw, 80e9);
  EXPECT_EQ(d.overlap, 0.25);
}

TEST(CacheOverlapYaml, DefaultsKeepThePlainRoofline) {
  const auto t = load_topology_text("devices:\n  - {id: g, type: gpu, memory: 1GiB, memory_bw: 1GB/s, fp32: 1TFLOPS}\n",
                                    "t.yaml");
  EXPECT_EQ(t.devices.at(0).cache_bytes, 0);
  EXPECT_EQ(t.devices.at(0).cache_bw, 0);
  EXPECT_EQ(t.devices.at(0).overlap, 1);
}

TEST(CacheOverlapYaml, CacheNeedsItsRateAndTheOtherWayRound) {
  // Located at the value given (line 2, counted by hand).
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, cache: 1MiB}\n",
                     "t.yaml:2:74", "cache needs cache_bw too");
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, cache_bw: 1GB/s}\n",
                     "t.yaml:2:77", "cache_bw needs cache too");
}

TEST(CacheOverlapYaml, OverlapIsAShare) {
  expect_input_error("devices:\n  - {id: c, type: cpu, cores: 2, fp32: 1TFLOPS, memory_bw: 1GB/s, overlap: 1.5}\n",
                     "t.yaml:2:76", "expected overlap between 0");
}

}  // namespace
