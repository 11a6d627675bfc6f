// `placesim calibrate --backend cuda`: microbenchmarks of GPU 0 with CUDA events, fitted as
// t = alpha + beta * x (ScheInfer Eq. 3, Table I): cuBLAS GEMM per dtype (FP32, FP16; square
// sizes, x = FLOPs), device memory copies (x = bytes), host-to-device copies from pinned and
// pageable memory, device-to-host to pinned memory (x = bytes), and the launch of an empty
// kernel (a constant: mean and standard deviation). Each timing is the median of `repeats`.
#pragma once

#include <string>

#include "hw/backend/calibrate/cpu_calibrate.hpp"
#include "hw/backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CudaCalibration {
  std::string gpu_name;
  double gpu_memory = 0, host_memory = 0;
  LinearFit gemm_fp32, gemm_fp16, d2d, h2d_pinned, h2d_pageable, d2h_pinned;
  double launch_s = 0, launch_sd_s = 0;
};

CudaCalibration calibrate_cuda(const CalibrateOptions& opts);

// A hardware file with host memory and gpu0 joined by one PCIe link: fp32 and tensor from the
// GEMM fits, memory_bw from device copies (read + write), launch from the empty kernel, the
// link's bandwidth and latency from the pinned H2D fit; every fit and r^2 as comments in the
// form of ScheInfer's Table I; and a calibration block (models/cost/calibration.hpp) with the
// GEMM fits per multiply-add as gpu_gemm fp32 and fp16, what the linear cost model reads.
std::string cuda_hardware_yaml(const CudaCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
