// Roofline durations worked out by hand, peak selection by dtype, and the cannot-run cases.
#include <gtest/gtest.h>

#include "models/cost/cost_model.hpp"
#include "roofline_support.hpp"

namespace placesim::models {
namespace {

// A V100-like GPU: 15.7 TFLOP/s FP32, 125 TFLOP/s tensor, no INT8 figure, 900 GB/s, 5 us launch.
hw::Device gpu() {
  hw::Device d;
  d.id = "gpu0";
  d.kind = hw::DeviceKind::Gpu;
  d.fp32_flops = 15.7e12;
  d.tensor_flops = 125e12;
  d.memory_bw = 900e9;
  d.launch_s = 5e-6;
  return d;
}

TEST(Roofline, ComputeBoundMatmul) {
  // [4096,4096] x [4096,4096] fp16: flops 2*4096^3 = 137,438,953,472;
  // bytes 3 * 4096^2 * 2 = 100,663,296.
  // compute 137,438,953,472 / 125e12 = 1.099511627776e-3 s; memory 100,663,296 / 900e9 = 1.118e-4 s
  // -> 5e-6 + 1.099511627776e-3 = 1.104511627776e-3 s
  const RooflineCost rc;
  const Node mm = work(137438953472.0, 100663296.0);
  expect_rel(rc.duration(mm, gpu(), DType::FP16), 1.104511627776e-3);
  // fp32 uses the FP32 peak: 137,438,953,472 / 15.7e12 = 8.754073469554140e-3 s (+5 us)
  expect_rel(rc.duration(mm, gpu(), DType::FP32), 5e-6 + 137438953472.0 / 15.7e12);
}

TEST(Roofline, MemoryBoundAdd) {
  // 1e8-element fp16 add: flops 1e8, bytes 3 * 1e8 * 2 = 6e8.
  // compute 1e8 / 125e12 = 8e-7 s; memory 6e8 / 900e9 = 6.666...e-4 s -> 5e-6 + 6.6666...e-4
  const RooflineCost rc;
  expect_rel(rc.duration(work(1e8, 6e8), gpu(), DType::FP16), 5e-6 + 2.0 / 3.0 * 1e-3);
}

TEST(Roofline, DispatchIsNotDeviceTime) {
  // 20 us of runtime dispatch per op is host time (a task on a dispatch thread, scheduler/lower/lower.hpp): the
  // add above still takes 5e-6 + 6.6666...e-4 s on the device, and an op with no work the launch.
  const RooflineCost rc;
  hw::Device d = gpu();
  d.dispatch_s = 20e-6;
  expect_rel(rc.duration(work(1e8, 6e8), d, DType::FP16), 5e-6 + 2.0 / 3.0 * 1e-3);
  expect_rel(rc.duration(work(0, 0), d, DType::FP16), 5e-6);
  // Explicit durations are the whole time (launch included).
  Node n = work(1, 1);
  n.durations = {{"gpu0", 14.0}};
  EXPECT_EQ(rc.duration(n, d, DType::FP16), 14.0);
}

TEST(Roofline, LaunchOnACpuIsPaidOnceWhateverItsCores) {
  // 4 cores, 400 GFLOP/s together, contention [1, 1.5], 30 us of launch per op; 1 GFLOP, no bytes.
  // On 2 cores: peak_2 = 400e9 * 2/4 / 1.5 = 133.33e9 -> 1e9 / 133.33e9 = 7.5e-3 s, + 30 us.
  // On all 4 (k = 0; past the curve's end w = 1.5): 400e9 / 1.5 -> 3.75e-3 s, + 30 us.
  hw::Device cpu;
  cpu.id = "cpu0";
  cpu.kind = hw::DeviceKind::Cpu;
  cpu.cores = 4;
  cpu.fp32_flops = 400e9;
  cpu.memory_bw = 50e9;
  cpu.contention = {1, 1.5};
  cpu.launch_s = 30e-6;
  const RooflineCost rc;
  expect_rel(rc.duration(work(1e9, 0), on_cores(cpu, 2), DType::FP32), 7.5e-3 + 30e-6);
  expect_rel(rc.duration(work(1e9, 0), on_cores(cpu, 0), DType::FP32), 3.75e-3 + 30e-6);
  // One of 2 busy cores (Chrion's W): one core's peak slowed by w_2, 400e9 / 4 / 1.5 = 66.67e9
  // -> 15e-3 s, and half the memory bandwidth, 25e9 -> 1 GB in 0.04 s; the 30 us once:
  // W_2 = c + 2 (d_2 - c) = 30e-6 + 2 * 7.5e-3 (compute) and 30e-6 + 2 * 1e9 / 50e9 (memory).
  expect_rel(rc.duration(work(1e9, 0), on_one_core(cpu, 2), DType::FP32), 15e-3 + 30e-6);
  expect_rel(rc.duration(work(0, 1e9), on_one_core(cpu, 2), DType::FP32), 0.04 + 30e-6);
  // All 4 busy (busy = 0): 400e9 / 4 / 1.5 and 12.5e9 -> 15e-3 s and 0.08 s.
  expect_rel(rc.duration(work(1e9, 1e9), on_one_core(cpu, 0), DType::FP32), 0.08 + 30e-6);
}

TEST(Roofline, PeakByDtype) {
  hw::Device d = gpu();
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::FP32), 15.7e12);
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::BF16), 125e12);
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::INT8), 125e12);  // no INT8 figure: tensor peak
  d.int8_ops = 250e12;
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::INT4), 250e12);
  d.tensor_flops = 0;  // no tensor cores (e.g. a CPU)
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::FP16), 15.7e12);
  d.int8_ops = 0;
  EXPECT_EQ(RooflineCost::peak_flops(d, DType::INT8), 15.7e12);
}

TEST(Roofline, ExplicitDurationsOverride) {
  const RooflineCost rc;
  Node n = work(1e12, 1e12);
  n.durations = {{"gpu0", 14.0}, {"gpu1", 16.0}};
  EXPECT_EQ(rc.duration(n, gpu(), DType::FP32), 14.0);  // no launch added
  hw::Device other = gpu();
  other.id = "gpu2";
  EXPECT_EQ(rc.duration(n, other, DType::FP32), kCannotRun);
}

TEST(Roofline, CannotRunRatherThanDivideByZero) {
  const RooflineCost rc;
  hw::Device mem = gpu();
  mem.kind = hw::DeviceKind::HostMemory;
  EXPECT_EQ(rc.duration(work(1, 1), mem, DType::FP16), kCannotRun);

  hw::Device no_bw = gpu();
  no_bw.memory_bw = 0;
  EXPECT_EQ(rc.duration(work(1, 1), no_bw, DType::FP16), kCannotRun);
  EXPECT_EQ(rc.duration(work(1e9, 0), no_bw, DType::FP16), 5e-6 + 1e9 / 125e12);  // needs no bandwidth

  hw::Device no_peak = gpu();
  no_peak.fp32_flops = 0;
  EXPECT_EQ(rc.duration(work(1, 1), no_peak, DType::FP32), kCannotRun);
  EXPECT_EQ(rc.duration(work(0, 9e8), no_peak, DType::FP32), 5e-6 + 1e-3);  // needs no peak
}

TEST(Roofline, ParamsTakeNoTime) {
  Node w;
  w.name = "w";
  w.kind = NodeKind::Param;
  w.param_bytes = 1e9;
  EXPECT_EQ(RooflineCost().duration(w, gpu(), DType::FP16), 0.0);
}

}  // namespace
}  // namespace placesim::models
