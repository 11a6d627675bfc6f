// The roofline's cache rate and compute/memory overlap (models/cost/roofline.cpp), and the cache
// and DRAM rates on k cores (models::on_cores), worked out by hand.
//
// The CPU: 2 cores, fp32 100 GFLOP/s (both cores), DRAM 10 GB/s, a 1 MiB cache at 80 GB/s (both
// cores), no launch cost, contention [1, 1.25].
#include <gtest/gtest.h>

#include "models/cost/cost_model.hpp"
#include "roofline_support.hpp"

namespace placesim::models {
namespace {

hw::Device cpu(double overlap) {
  hw::Device d;
  d.id = "cpu";
  d.kind = hw::DeviceKind::Cpu;
  d.cores = 2;
  d.fp32_flops = 100e9;
  d.memory_bw = 10e9;
  d.cache_bytes = 1048576;
  d.cache_bw = 80e9;
  d.overlap = overlap;
  d.contention = {1, 1.25};
  return d;
}

TEST(RooflineCache, BytesThatFitMoveAtTheCacheRate) {
  const RooflineCost rc;
  // 1e6 bytes <= 1,048,576: 1e6 / 80e9 = 12.5 us.
  expect_rel(rc.duration(work(0, 1e6), cpu(1), DType::FP32), 12.5e-6);
  // Exactly the cache size still fits: 1,048,576 / 80e9 = 13.1072 us.
  expect_rel(rc.duration(work(0, 1048576), cpu(1), DType::FP32), 13.1072e-6);
  // One byte more goes to DRAM: 1,048,577 / 10e9 = 104.8577 us.
  expect_rel(rc.duration(work(0, 1048577), cpu(1), DType::FP32), 104.8577e-6);
  // Without a cache every op goes to DRAM: 1e6 / 10e9 = 100 us.
  hw::Device plain = cpu(1);
  plain.cache_bytes = plain.cache_bw = 0;
  expect_rel(rc.duration(work(0, 1e6), plain, DType::FP32), 100e-6);
  EXPECT_EQ(RooflineCost::memory_rate(plain, 1), 10e9);
}

TEST(RooflineCache, OverlapHidesTheShorterTime) {
  const RooflineCost rc;
  // 1e9 FLOPs and 20e6 bytes (past the cache): c = 1e9 / 100e9 = 10 ms, m = 20e6 / 10e9 = 2 ms.
  const Node gemm = work(1e9, 20e6);
  expect_rel(rc.duration(gemm, cpu(1), DType::FP32), 10e-3);    // max(c, m)
  expect_rel(rc.duration(gemm, cpu(0), DType::FP32), 12e-3);    // c + m
  expect_rel(rc.duration(gemm, cpu(0.5), DType::FP32), 11e-3);  // c + m / 2
  // Memory bound the other way round: 1e8 FLOPs (1 ms) and 50e6 bytes (5 ms): overlap 0 -> 6 ms.
  expect_rel(rc.duration(work(1e8, 50e6), cpu(0), DType::FP32), 6e-3);
}

TEST(RooflineCache, CacheRateScalesWithCoresLikeThePeak) {
  const RooflineCost rc;
  // k = 1: scale 1/2 / contention[0] = 0.5: fp32 50e9, cache_bw 40e9, DRAM stays 10e9.
  const hw::Device one = on_cores(cpu(0), 1);
  expect_rel(one.cache_bw, 40e9);
  EXPECT_EQ(one.memory_bw, 10e9);
  expect_rel(rc.duration(work(0, 1e6), one, DType::FP32), 25e-6);         // 1e6 / 40e9
  expect_rel(rc.duration(work(1e9, 20e6), one, DType::FP32), 22e-3);      // 1e9 / 50e9 + 2 ms
  // k = 2: scale 2/2 / 1.25 = 0.8: cache_bw 64e9, fp32 80e9.
  const hw::Device two = on_cores(cpu(0), 2);
  expect_rel(rc.duration(work(0, 1e6), two, DType::FP32), 15.625e-6);     // 1e6 / 64e9
  expect_rel(rc.duration(work(1e9, 20e6), two, DType::FP32), 14.5e-3);    // 1e9 / 80e9 + 2 ms
}

TEST(RooflineCache, CoreMemoryRateScalesUpToTheSocket) {
  const RooflineCost rc;
  // One core reaches 6 GB/s of the socket's 10 GB/s. k = 1: min(10, 6 * 1 / 1) = 6 GB/s;
  // k = 2: min(10, 6 * 2 / 1.25) = 9.6 GB/s. A 20e6-byte op (no FLOPs): 3.3333 ms on one core,
  // 2.0833 ms on two together; on one of two busy cores W = 2 * 2.0833 = 4.1667 ms
  // = d_1 * w_2 = 3.3333 * 1.25, as for compute.
  hw::Device d = cpu(0);
  d.core_memory_bw = 6e9;
  expect_rel(on_cores(d, 1).memory_bw, 6e9);
  expect_rel(on_cores(d, 2).memory_bw, 9.6e9);
  const double d1 = rc.duration(work(0, 20e6), on_cores(d, 1), DType::FP32);
  const double d2 = rc.duration(work(0, 20e6), on_cores(d, 2), DType::FP32);
  expect_rel(d1, 20e6 / 6e9);
  expect_rel(2 * d2, d1 * 1.25);
  // 8 GB/s a core: two would reach 8 * 2 / 1.25 = 12.8 GB/s, more than the socket's 10.
  d.core_memory_bw = 8e9;
  expect_rel(on_cores(d, 2).memory_bw, 10e9);
  // Without core_memory_bw every count gets the socket's rate.
  EXPECT_EQ(on_cores(cpu(0), 1).memory_bw, 10e9);
}

}  // namespace
}  // namespace placesim::models
