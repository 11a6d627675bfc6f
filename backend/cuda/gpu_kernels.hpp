// The GPU kernels of the CUDA backend other than GEMM (cuBLAS): each enqueues one launch on a
// stream. stream: dst = a*src + b over `floats` elements (2 * 4 * floats bytes of traffic).
// spin: one thread busy until the GPU's global timer has advanced `seconds`. dha: reads `bytes`
// of mapped host memory (a zero-copy pointer) and writes one sum, so the reads cannot be elided.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

namespace placesim::backend::gpu {

void stream(const float* src, float* dst, std::size_t floats, cudaStream_t s);
void spin(double seconds, cudaStream_t s);
void dha(const float* host_mapped, std::size_t floats, float* sum, cudaStream_t s);
void empty(cudaStream_t s);  // a kernel that does nothing: the launch cost alone

}  // namespace placesim::backend::gpu
