// The figures `placesim calibrate --backend cuda` measures (cuda/cuda_calibrate.hpp) and the
// hardware file it writes from them. Plain C++: the file is written, and tested, without the
// CUDA module (cuda_api.hpp).
#pragma once

#include <string>

#include "backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CudaCalibration {
  std::string gpu_name;
  double gpu_memory = 0, host_memory = 0;
  LinearFit gemm_fp32, gemm_fp16, d2d, h2d_pinned, h2d_pageable, d2h_pinned;
  double launch_s = 0, launch_sd_s = 0;
  // Kernels by op class (models/cost/calibration.hpp), fp16, x = multiply-adds: cuBLAS over a
  // grid of shapes the generators emit whose m, n, k are multiples of 8, and over shapes that are
  // not (a vocabulary of 50257, odd and small sizes); x = bytes: the stream kernel the backend
  // runs for every other op (norms, elementwise, gathers, attention where memory bound).
  LinearFit gemm_grid_fp16, gemm_unaligned_fp16, stream;
};

// Throws CalibrationError naming the first fit of the op classes that is unusable (a negative
// intercept, r^2 < 0.95: require_usable), so that nothing is written.
void require_usable_fits(const CudaCalibration& c);

// A hardware file with host memory and gpu0 joined by one PCIe link: fp32 and tensor from the
// GEMM fits, memory_bw from device copies (read + write), launch from the empty kernel, the
// link's bandwidth and latency from the pinned H2D fit; every fit and r^2 as comments in the
// form of ScheInfer's Table I; and a calibration block (models/cost/calibration.hpp), what the
// linear cost model reads: gpu_gemm fp32 (square GEMMs, per multiply-add) and fp16 (the shape
// grid), gpu_gemm_unaligned fp16, and gpu_norm, gpu_elementwise and gpu_gather per element
// access (the stream kernel's time per byte times 2 bytes for fp16 and bf16, 4 for fp32).
std::string cuda_hardware_yaml(const CudaCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
