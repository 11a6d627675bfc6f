#include "backend/cuda/cuda_calibrate.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <functional>
#include <vector>

#include "backend/cpu/machine.hpp"
#include "backend/cuda/cuda_check.hpp"
#include "backend/cuda/gpu_kernels.hpp"

namespace placesim::backend {
namespace {

// Median seconds of `fn` enqueued on `s`, timed by events, after one warm-up.
double time_gpu(cudaStream_t s, int repeats, const std::function<void()>& fn) {
  cudaEvent_t a, b;
  cuda_check(cudaEventCreate(&a), "cudaEventCreate");
  cuda_check(cudaEventCreate(&b), "cudaEventCreate");
  fn();
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    cuda_check(cudaEventRecord(a, s), "cudaEventRecord");
    fn();
    cuda_check(cudaEventRecord(b, s), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(b), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
    t.push_back(ms * 1e-3);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return median(t);
}

LinearFit gemm_fit(cublasHandle_t h, cudaStream_t s, cudaDataType type, std::size_t elem, int repeats) {
  std::vector<double> x, t;
  for (int n : {256, 512, 1024, 2048, 4096}) {
    void *a, *b, *c;
    const std::size_t bytes = elem * n * n;
    cuda_check(cudaMalloc(&a, bytes), "cudaMalloc");
    cuda_check(cudaMalloc(&b, bytes), "cudaMalloc");
    cuda_check(cudaMalloc(&c, bytes), "cudaMalloc");
    const float one = 1, zero = 0;
    x.push_back(2.0 * n * n * n);
    t.push_back(time_gpu(s, repeats, [&] {
      cublas_check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, type, n, b, type, n, &zero, c, type, n,
                                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx");
    }));
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  return fit_line(x, t);
}

// fp16 GEMMs C[m, n] = A[m, k] B[k, n] of the given shapes, timed against x = m * n * k
// multiply-adds.
struct Shape {
  int m, n, k;
};

LinearFit gemm_shapes_fit(cublasHandle_t h, cudaStream_t s, const std::vector<Shape>& shapes, int repeats) {
  std::vector<double> x, t;
  for (const Shape& sh : shapes) {
    void *a, *b, *c;
    cuda_check(cudaMalloc(&a, 2ull * sh.m * sh.k), "cudaMalloc");
    cuda_check(cudaMalloc(&b, 2ull * sh.k * sh.n), "cudaMalloc");
    cuda_check(cudaMalloc(&c, 2ull * sh.m * sh.n), "cudaMalloc");
    const float one = 1, zero = 0;
    x.push_back(static_cast<double>(sh.m) * sh.n * sh.k);
    // Column-major C^T[n, m] = B^T A^T, as the backend runs a row-major GEMM.
    t.push_back(time_gpu(s, repeats, [&] {
      cublas_check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, sh.n, sh.m, sh.k, &one, b, CUDA_R_16F, sh.n, a, CUDA_R_16F,
                                sh.k, &zero, c, CUDA_R_16F, sh.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx");
    }));
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  return fit_line(x, t);
}

// The shapes of the transformer generators' linear layers (tokens x hidden x ffn of GPT-2 and
// LLaMA sizes), all multiples of 8; and shapes that are not: a vocabulary of 50257, odd and small
// sizes, where cuBLAS leaves the tensor cores' tiles.
const std::vector<Shape> kAligned = {{128, 1280, 1280}, {128, 3840, 1280}, {128, 5120, 1280}, {128, 1280, 5120},
                                     {1024, 1280, 1280}, {1024, 3840, 1280}, {1024, 5120, 1280}, {1024, 1280, 5120},
                                     {16, 4096, 4096}, {256, 11008, 4096}, {2048, 4096, 4096}, {8, 3200, 3200}};
const std::vector<Shape> kUnaligned = {{128, 50257, 1280}, {1024, 50257, 1280}, {1, 50257, 1280}, {100, 999, 1000},
                                       {33, 4097, 4095}, {777, 777, 777}, {2000, 3001, 1001}};

// The stream kernel (dst = a * src + b, 8 bytes moved per float) over sizes from 64 KiB to 256
// MiB, against bytes moved: what the backend runs for an op that is no GEMM.
LinearFit stream_fit(cudaStream_t s, int repeats) {
  std::vector<double> x, t;
  for (double mib : {0.0625, 0.5, 4.0, 32.0, 256.0}) {
    const std::size_t floats = static_cast<std::size_t>(mib * 1048576 / 8);
    float *src, *dst;
    cuda_check(cudaMalloc(&src, 4 * floats), "cudaMalloc");
    cuda_check(cudaMalloc(&dst, 4 * floats), "cudaMalloc");
    x.push_back(8.0 * static_cast<double>(floats));
    t.push_back(time_gpu(s, repeats, [&] { gpu::stream(src, dst, floats, s); }));
    cudaFree(src);
    cudaFree(dst);
  }
  return fit_line(x, t);
}

enum class Side { Device, Pinned, Pageable };

LinearFit copy_fit(cudaStream_t s, Side from, Side to, int repeats) {
  std::vector<double> x, t;
  for (double mib : {0.0625, 1.0, 8.0, 64.0, 256.0}) {
    const std::size_t bytes = static_cast<std::size_t>(mib * 1048576);
    auto alloc = [&](Side side) {
      void* p = nullptr;
      if (side == Side::Device) cuda_check(cudaMalloc(&p, bytes), "cudaMalloc");
      if (side == Side::Pinned) cuda_check(cudaMallocHost(&p, bytes), "cudaMallocHost");
      if (side == Side::Pageable) p = std::calloc(bytes, 1);
      return p;
    };
    auto release = [](Side side, void* p) {
      if (side == Side::Device) cudaFree(p);
      if (side == Side::Pinned) cudaFreeHost(p);
      if (side == Side::Pageable) std::free(p);
    };
    void* src = alloc(from);
    void* dst = alloc(to);
    if (!src || !dst) throw std::bad_alloc();
    x.push_back(static_cast<double>(bytes));
    t.push_back(time_gpu(s, repeats, [&] { cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync"); }));
    release(from, src);
    release(to, dst);
  }
  return fit_line(x, t);
}

}  // namespace

CudaCalibration calibrate_cuda(const CalibrateOptions& opts) {
  CudaCalibration c;
  cuda_check(cudaSetDevice(0), "cudaSetDevice");
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  c.gpu_name = prop.name;
  c.gpu_memory = static_cast<double>(prop.totalGlobalMem);
  c.host_memory = this_machine().memory_bytes();
  cudaStream_t s;
  cuda_check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
  cublasHandle_t h;
  cublas_check(cublasCreate(&h), "cublasCreate");
  cublas_check(cublasSetStream(h, s), "cublasSetStream");
  const int rep = opts.repeats;
  c.gemm_fp32 = gemm_fit(h, s, CUDA_R_32F, 4, rep);
  c.gemm_fp16 = gemm_fit(h, s, CUDA_R_16F, 2, rep);
  c.gemm_grid_fp16 = gemm_shapes_fit(h, s, kAligned, rep);
  c.gemm_unaligned_fp16 = gemm_shapes_fit(h, s, kUnaligned, rep);
  c.stream = stream_fit(s, rep);
  c.d2d = copy_fit(s, Side::Device, Side::Device, rep);
  c.h2d_pinned = copy_fit(s, Side::Pinned, Side::Device, rep);
  c.h2d_pageable = copy_fit(s, Side::Pageable, Side::Device, rep);
  c.d2h_pinned = copy_fit(s, Side::Device, Side::Pinned, rep);
  // Launch: host seconds per empty-kernel launch, over batches of 1000.
  std::vector<double> per;
  for (int r = 0; r < std::max(3, rep); ++r) {
    cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) gpu::empty(s);
    cuda_check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    per.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1000);
  }
  c.launch_s = median(per);
  for (double v : per) c.launch_sd_s += (v - c.launch_s) * (v - c.launch_s) / per.size();
  c.launch_sd_s = std::sqrt(c.launch_sd_s);
  cublasDestroy(h);
  cudaStreamDestroy(s);
  return c;
}

}  // namespace placesim::backend
