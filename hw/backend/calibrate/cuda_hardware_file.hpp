// The figures `placesim calibrate --backend cuda` measures (cuda/cuda_calibrate.hpp) and the
// hardware file it writes from them. Plain C++: the file is written, and tested, without the
// CUDA module (cuda_api.hpp).
#pragma once

#include <string>

#include "hw/backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CudaCalibration {
  std::string gpu_name;
  double gpu_memory = 0, host_memory = 0;
  LinearFit gemm_fp32, gemm_fp16, d2d, h2d_pinned, h2d_pageable, d2h_pinned;
  double launch_s = 0, launch_sd_s = 0;
};

// A hardware file with host memory and gpu0 joined by one PCIe link: fp32 and tensor from the
// GEMM fits, memory_bw from device copies (read + write), launch from the empty kernel, the
// link's bandwidth and latency from the pinned H2D fit; every fit and r^2 as comments in the
// form of ScheInfer's Table I; and a calibration block (models/cost/calibration.hpp) with the
// GEMM fits per multiply-add as gpu_gemm fp32 and fp16, what the linear cost model reads.
std::string cuda_hardware_yaml(const CudaCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
