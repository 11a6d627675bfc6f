// `placesim calibrate --backend cuda`: microbenchmarks of GPU 0 with CUDA events, fitted as
// t = alpha + beta * x (ScheInfer Eq. 3, Table I): cuBLAS GEMM per dtype (FP32, FP16; square
// sizes, x = FLOPs), device memory copies (x = bytes), host-to-device copies from pinned and
// pageable memory, device-to-host to pinned memory (x = bytes), and the launch of an empty
// kernel (a constant: mean and standard deviation); per op class (cuda_hardware_file.hpp): fp16
// GEMMs over a grid of aligned shapes and over unaligned ones (x = multiply-adds), and the stream
// kernel the backend runs for other ops (x = bytes). Each timing is the median of `repeats`.
#pragma once

#include <string>

#include "backend/calibrate/cpu_calibrate.hpp"
#include "backend/calibrate/cuda_hardware_file.hpp"

namespace placesim::backend {

CudaCalibration calibrate_cuda(const CalibrateOptions& opts);

}  // namespace placesim::backend
