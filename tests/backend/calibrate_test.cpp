// Calibration without timing: the fits and their rejection (worked by hand), the interleaved
// order and medians of synthetic measurements, and the hardware file read back as one CPU.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "backend/calibrate/cpu_calibrate.hpp"
#include "backend/calibrate/cpu_hardware_file.hpp"
#include "backend/calibrate/cuda_hardware_file.hpp"
#include "backend/calibrate/machine.hpp"
#include "backend/calibrate/interleaved.hpp"
#include "backend/calibrate/linear_fit.hpp"
#include "hw/topology_yaml.hpp"
#include "models/cost/cost_models.hpp"

namespace placesim::backend {
namespace {

std::string rejection(const std::string& name, const LinearFit& f) {
  try {
    require_usable(name, f);
  } catch (const CalibrationError& e) {
    return e.what();
  }
  return "";
}

TEST(CalibrateFit, LineIsExact) {
  const LinearFit f = fit_line({1, 2, 3, 4}, {3, 5, 7, 9});
  EXPECT_DOUBLE_EQ(f.alpha, 1);
  EXPECT_DOUBLE_EQ(f.beta, 2);
  EXPECT_DOUBLE_EQ(f.r2, 1);
  EXPECT_EQ(f.alpha_se, 0);  // no residual
}

TEST(CalibrateFit, PlaneIsExact) {
  // t = 0.5 + 2 x + 3 y at five points not on one line.
  const std::vector<double> x{1, 0, 1, 2, 3}, y{0, 1, 1, 1, 5};
  std::vector<double> t;
  for (size_t i = 0; i < x.size(); ++i) t.push_back(0.5 + 2 * x[i] + 3 * y[i]);
  const LinearFit f = fit_plane(x, y, t);
  EXPECT_NEAR(f.alpha, 0.5, 1e-12);
  EXPECT_NEAR(f.beta, 2, 1e-12);
  EXPECT_NEAR(f.beta2, 3, 1e-12);
  EXPECT_NEAR(f.r2, 1, 1e-12);
}

TEST(CalibrateFit, RejectsANegativeIntercept) {
  // t = -1 + 2 x exactly: alpha = -1 with no noise at all (se = 0).
  const LinearFit f = fit_line({1, 2, 3, 4}, {1, 3, 5, 7});
  EXPECT_DOUBLE_EQ(f.alpha, -1);
  const std::string why = rejection("stream_dram", f);
  EXPECT_NE(why.find("stream_dram"), std::string::npos) << why;
  EXPECT_NE(why.find("negative intercept"), std::string::npos) << why;
}

TEST(CalibrateFit, AcceptsAnInterceptZeroWithinItsNoise) {
  // t = {1.9, 4.1, 5.9, 8.1} at x = 1..4: mean x 2.5, mean t 5, Sxx 5, Sxt 10.2 -> beta 2.04,
  // alpha 5 - 2.04 * 2.5 = -0.1; residuals -0.04, 0.12, -0.12, 0.04 -> SS_res 0.032, s^2 =
  // 0.032 / 2 = 0.016; se(alpha) = sqrt(0.016 * (1/4 + 2.5^2 / 5)) = sqrt(0.024) = 0.1549:
  // -0.1 is 0.65 standard errors below zero, not a negative start-up time. SS_tot 20.84 ->
  // r^2 = 1 - 0.032 / 20.84 = 0.99846.
  const LinearFit f = fit_line({1, 2, 3, 4}, {1.9, 4.1, 5.9, 8.1});
  EXPECT_NEAR(f.alpha, -0.1, 1e-12);
  EXPECT_NEAR(f.beta, 2.04, 1e-12);
  EXPECT_NEAR(f.alpha_se, std::sqrt(0.024), 1e-12);
  EXPECT_NEAR(f.r2, 1 - 0.032 / 20.84, 1e-12);
  EXPECT_EQ(rejection("stream_dram", f), "");
}

TEST(CalibrateFit, RejectsALowR2) {
  // t = {1, 3, 2, 4} at x = 1..4: Sxt 4, Sxx 5 -> beta 0.8, alpha 0.5; SS_tot 5,
  // SS_res = 5 - 0.8 * 4 = 1.8 -> r^2 = 0.64 < 0.95.
  const LinearFit f = fit_line({1, 2, 3, 4}, {1, 3, 2, 4});
  EXPECT_NEAR(f.r2, 0.64, 1e-12);
  const std::string why = rejection("copy", f);
  EXPECT_NE(why.find("the copy fit"), std::string::npos) << why;
  EXPECT_NE(why.find("r^2 = 0.6400"), std::string::npos) << why;
}

TEST(CalibrateFit, EveryFitOfACalibrationIsChecked) {
  CpuCalibration c;
  for (LinearFit* f : {&c.gemm, &c.gemm_all, &c.stream_cache, &c.copy, &c.gemm_line, &c.gemm_all_line})
    *f = fit_line({1, 2, 3}, {2, 3, 4});
  EXPECT_NO_THROW(require_usable_fits(c));
  c.stream_cache = fit_line({1, 2, 3, 4}, {1, 3, 5, 7});
  try {
    require_usable_fits(c);
    FAIL() << "expected the stream_cache fit to be rejected";
  } catch (const CalibrationError& e) {
    EXPECT_NE(std::string(e.what()).find("stream_cache"), std::string::npos) << e.what();
  }
  // A cpu_gemm intercept below zero within its noise passes require_usable (alpha = -0.1, se
  // 0.155: AcceptsAnInterceptZeroWithinItsNoise) but is no start-up time the linear model can take.
  c.stream_cache = c.copy;
  c.gemm_line = fit_line({1, 2, 3, 4}, {1.9, 4.1, 5.9, 8.1});
  try {
    require_usable_fits(c);
    FAIL() << "expected the cpu_gemm fit to be rejected";
  } catch (const CalibrationError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu_gemm (time vs multiply-adds, one core) fit has an intercept below zero"),
              std::string::npos)
        << e.what();
  }
}

TEST(CalibrateFit, RejectsAMachineThatWasBusy) {
  CpuCalibration c;
  for (LinearFit* f : {&c.gemm, &c.gemm_all, &c.stream_cache, &c.copy, &c.gemm_line, &c.gemm_all_line})
    *f = fit_line({1, 2, 3}, {2, 3, 4});
  c.core_share = 0.55;  // another process had the core for almost half the time
  try {
    require_usable_fits(c);
    FAIL() << "expected a busy machine to be rejected";
  } catch (const CalibrationError& e) {
    EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("55%"), std::string::npos) << e.what();
  }
}

TEST(CalibrateInterleaved, RoundsInTurnAndMedianPerPoint) {
  // Three points, three recorded rounds after one unrecorded: each point returns the next value
  // of its own sequence, the first being the unrecorded round's.
  std::string order;
  std::vector<std::vector<double>> values{{100, 5, 1, 3}, {100, 2, 2, 9}, {100, 7, 8, 6}};
  std::vector<size_t> next(3, 0);
  std::vector<Measure> points;
  for (size_t p = 0; p < 3; ++p)
    points.push_back([&, p] {
      order += static_cast<char>('A' + p);
      return values[p][next[p]++];
    });
  const std::vector<double> m = interleaved_medians(points, 3);
  EXPECT_EQ(order, "ABCABCABCABC");
  EXPECT_EQ(m, (std::vector<double>{3, 2, 7}));  // medians of {5,1,3}, {2,2,9}, {7,8,6}
}

TEST(CalibrateInterleaved, ReportsEachMeasurement) {
  // Two points, two recorded rounds after the unrecorded one: 2 x 3 = 6 measurements, reported
  // as 0 before the first and then after each, always with that total.
  int calls = 0;
  std::vector<Measure> points(2, [&] { return 1.0 * ++calls; });
  std::vector<std::pair<int, int>> seen;
  interleaved_samples(points, 2, [&](int done, int total) {
    seen.emplace_back(done, total);
    EXPECT_EQ(done, calls);  // reported once the measurement it counts has run
  });
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{0, 6}, {1, 6}, {2, 6}, {3, 6}, {4, 6}, {5, 6}, {6, 6}}));
}

CpuCalibration two_cores() {
  CpuCalibration c;
  c.cores = 2;
  c.rounds = 7;
  c.memory_bytes = 8589934592;
  c.cache_bytes = 524288;
  c.gemm = {0, 1 / 50e9, 1e-10, 0, 0.99, 20};      // 50 GFLOP/s per core; 1e-10 s per byte (10 GB/s)
  c.gemm_all = {0, 1 / 95e9, 1 / 16e9, 0, 0.99, 20};  // split over both cores: 16 GB/s
  c.stream_cache = {0, 1 / 40e9, 0, 0, 0.99, 5};   // 40 GB/s per core
  c.copy = {1e-6, 1 / 8e9, 0, 0, 0.99, 5};         // 8 GB/s, 1 us
  c.copy_all_bw = 12e9;
  c.handoff_s = 2e-6;
  c.launch_s = 1e-7;
  c.dispatch_s = 5e-6;
  c.contention = {1, 1.25};
  c.gemm_line = {2e-6, 3e-11, 0, 0, 0.99, 20};      // per multiply-add: one core
  c.gemm_all_line = {4e-6, 1.6e-11, 0, 0, 0.99, 20};  // split over both cores
  return c;
}

TEST(CalibrateFile, RoundTripsAsOneCpuWithCoresAndCurve) {
  const hw::Topology t = hw::load_topology_text(cpu_hardware_yaml(two_cores(), "local", "placesim calibrate -o x"), "x.yaml");
  int cpus = 0;
  for (const hw::Device& d : t.devices) cpus += d.kind == hw::DeviceKind::Cpu;
  ASSERT_EQ(cpus, 1);
  const hw::Device& cpu = t.devices[t.index("cpu")];
  EXPECT_EQ(cpu.cores, 2);
  EXPECT_EQ(cpu.contention, (std::vector<double>{1, 1.25}));
  EXPECT_NEAR(cpu.fp32_flops, 100e9, 1e-6 * 100e9);      // 2 cores x 50 GFLOP/s
  EXPECT_NEAR(cpu.core_memory_bw, 10e9, 1e-6 * 10e9);    // 1 / 1e-10
  EXPECT_NEAR(cpu.memory_bw, 16e9, 1e-6 * 16e9);         // all cores together, within [10, 20] GB/s
  EXPECT_EQ(cpu.overlap, 0);
  EXPECT_EQ(cpu.cache_bytes, 524288);
  EXPECT_NEAR(cpu.cache_bw, 80e9, 1e-6 * 80e9);          // 2 cores x 40 GB/s
  EXPECT_NEAR(cpu.launch_s, 1e-7, 1e-13);
  EXPECT_NEAR(cpu.dispatch_s, 5e-6, 1e-12);  // on the one dispatch thread the file declares
  EXPECT_TRUE(t.runtime.declared);
  EXPECT_EQ(t.runtime.dispatch_threads, 1);
  const hw::Device& host = t.devices[t.index("host")];
  EXPECT_NEAR(host.memory_bw, 12e9, 1e-6 * 12e9);
  const int link = t.link_between(t.index("host"), t.index("cpu"));
  ASSERT_GE(link, 0);
  EXPECT_NEAR(t.links[link].bw_ab, 8e9, 1e-6 * 8e9);
  EXPECT_NEAR(t.links[link].latency_s, 3e-6, 1e-12);     // copy alpha 1 us + handoff 2 us
  ASSERT_TRUE(t.calibration);
  EXPECT_TRUE(t.calibration->has("stream_cache"));
  // The machine it was measured on, as validate compares it.
  EXPECT_EQ(t.calibration->at("machine").str(), backend::machine_name());
}

// One linear layer, [32, 1024] x [1024, 4096]: n = 32 * 1024 * 4096 multiply-adds.
models::Graph one_gemm(models::DType dtype) {
  models::Graph g;
  g.dtype = dtype;
  models::Node op;
  op.name = "fc";
  op.shape = models::GemmShape{.m = 32, .n = 4096, .k = 1024, .weight = models::GemmWeight::B};
  g.add_node(op);
  g.validate();
  return g;
}

// What calibrate writes is what the linear cost model reads: its cpu_gemm fits, per thread count,
// give a GEMM's time on 1 and on 2 cores as alpha + n * beta plus the backend's launch.
TEST(CalibrateFile, ItsCpuGemmFitsAreTheLinearCostModels) {
  const hw::Topology t = hw::load_topology_text(cpu_hardware_yaml(two_cores(), "local", "placesim calibrate -o x"), "x.yaml");
  const models::Graph g = one_gemm(models::DType::FP32);
  const auto linear = models::cost_models().get("linear").make(Yaml::load_string("linear", "s.yaml"), t, g);
  const hw::Device& cpu = t.devices[t.index("cpu")];
  const double n = 32.0 * 1024 * 4096;
  EXPECT_NEAR(linear->duration(g.nodes[0], models::on_cores(cpu, 1), models::DType::FP32), 1e-7 + 2e-6 + n * 3e-11, 1e-15);
  EXPECT_NEAR(linear->duration(g.nodes[0], models::on_cores(cpu, 2), models::DType::FP32), 1e-7 + 4e-6 + n * 1.6e-11, 1e-15);
}

// The CUDA calibration's fits become the linear cost model's per op class: fp16 GEMMs from the
// shape grid (x already multiply-adds), fp32 from the square GEMMs (x = FLOPs: beta doubled per
// multiply-add), and a norm per element access from the stream kernel (2 bytes an fp16 access).
CudaCalibration a_cuda_calibration() {
  CudaCalibration c;
  c.gpu_name = "test GPU";
  c.gpu_memory = 16e9;
  c.host_memory = 64e9;
  c.gemm_fp32 = {5e-6, 1 / 20e12, 0, 0, 0.99, 5};
  c.gemm_fp16 = {6e-6, 1 / 100e12, 0, 0, 0.99, 5};
  c.gemm_grid_fp16 = {7e-6, 2e-14, 0, 0, 0.99, 12};
  c.gemm_unaligned_fp16 = {3e-5, 1e-13, 0, 0, 0.99, 7};
  c.stream = {3e-6, 1 / 3e12, 0, 0, 0.99, 5};
  c.d2d = {1e-6, 1 / 400e9, 0, 0, 0.99, 5};
  c.h2d_pinned = c.d2h_pinned = c.h2d_pageable = {2e-6, 1 / 25e9, 0, 0, 0.99, 5};
  c.launch_s = 4e-6;
  return c;
}

TEST(CalibrateFile, CudaFitsAreTheLinearCostModelsPerOpClass) {
  const hw::Topology t = hw::load_topology_text(cuda_hardware_yaml(a_cuda_calibration(), "gpu", "placesim calibrate -o x"), "x.yaml");
  const hw::Device& gpu = t.devices[t.index("gpu0")];
  models::Graph g = one_gemm(models::DType::FP16);
  const auto linear = models::cost_models().get("linear").make(Yaml::load_string("linear", "s.yaml"), t, g);
  const double n = 32.0 * 1024 * 4096;  // aligned: the grid's fit
  EXPECT_NEAR(linear->duration(g.nodes[0], gpu, models::DType::FP16), 4e-6 + 7e-6 + n * 2e-14, 1e-15);
  models::Node norm = g.nodes[0];
  norm.shape = models::ElementwiseShape{.elements = 1e6, .flops_per_element = 4, .weight_elements = 1e3};
  // 2 / 3e12 is written to seven digits (fit_yaml): within 1e-6 of the exact line.
  EXPECT_NEAR(linear->duration(norm, gpu, models::DType::FP16), 4e-6 + 3e-6 + 2.001e6 * 2 / 3e12, 1e-6 * 8.334e-6);
  models::Node odd = g.nodes[0];
  odd.shape = models::GemmShape{.m = 128, .n = 50257, .k = 1280, .weight = models::GemmWeight::B};
  EXPECT_NEAR(linear->duration(odd, gpu, models::DType::FP16), 4e-6 + 3e-5 + 128.0 * 50257 * 1280 * 1e-13, 1e-15);
}

TEST(CalibrateFile, AnUnusableCudaFitWritesNothing) {
  CudaCalibration c = a_cuda_calibration();
  EXPECT_NO_THROW(require_usable_fits(c));
  c.stream.r2 = 0.5;
  EXPECT_THROW(require_usable_fits(c), CalibrationError);
  c = a_cuda_calibration();
  c.gemm_unaligned_fp16.alpha = -1e-3;
  c.gemm_unaligned_fp16.alpha_se = 1e-6;
  EXPECT_THROW(require_usable_fits(c), CalibrationError);
}

}  // namespace
}  // namespace placesim::backend
