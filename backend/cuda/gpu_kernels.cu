#include "backend/cuda/gpu_kernels.hpp"

#include <cstdint>

namespace placesim::backend::gpu {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void stream_kernel(const float* __restrict__ src, float* __restrict__ dst, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] = 0.5f * src[i] + 1.0f;
}

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t until = global_ns() + ns;
  while (global_ns() < until) {
  }
}

__global__ void dha_kernel(const float* __restrict__ src, std::size_t n, float* sum) {
  float acc = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    acc += src[i];
  if (acc == 12345.0f) *sum = acc;  // data-dependent store: the reads stay
}

__global__ void empty_kernel() {}

int blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<int>(b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b));
}

}  // namespace

void stream(const float* src, float* dst, std::size_t floats, cudaStream_t s) {
  stream_kernel<<<blocks_for(floats), kThreads, 0, s>>>(src, dst, floats);
}

void spin(double seconds, cudaStream_t s) { spin_kernel<<<1, 1, 0, s>>>(static_cast<std::uint64_t>(seconds * 1e9)); }

void dha(const float* host_mapped, std::size_t floats, float* sum, cudaStream_t s) {
  dha_kernel<<<blocks_for(floats), kThreads, 0, s>>>(host_mapped, floats, sum);
}

void empty(cudaStream_t s) { empty_kernel<<<1, 1, 0, s>>>(); }

}  // namespace placesim::backend::gpu
