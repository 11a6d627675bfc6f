#include "hw/backend/cuda/cuda_calibrate.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <functional>
#include <vector>

#include "hw/backend/cpu/machine.hpp"
#include "hw/backend/cuda/cuda_check.hpp"
#include "hw/backend/cuda/gpu_kernels.hpp"

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

std::string table_row(const char* label, std::initializer_list<double> v, const char* fmt_spec) {
  std::string s = fmt::format("#   {:<8}", label);
  for (double d : v) s += fmt::format(fmt::runtime(fmt_spec), d);
  return s + "\n";
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

std::string cuda_hardware_yaml(const CudaCalibration& c, const std::string& name, const std::string& command) {
  auto inv = [](const LinearFit& f) { return f.beta > 0 ? 1 / f.beta : 0; };
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::string y = fmt::format("# {} measured by: {}\n# on {} (UTC). Fits t = alpha + beta * x (the linear cost model: README \"Cost models\"),\n",
                              c.gpu_name, command, date);
  y += "# seconds; x in FLOPs for GEMM, bytes for copies; launch is a constant:\n";
  y += "# its standard deviation replaces r^2):\n#\n";
  y += fmt::format("#   {:<8}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}\n", "", "GEMM FP32", "GEMM FP16", "D2D", "H2D pin",
                   "H2D page", "D2H pin", "launch");
  y += table_row("alpha", {c.gemm_fp32.alpha, c.gemm_fp16.alpha, c.d2d.alpha, c.h2d_pinned.alpha, c.h2d_pageable.alpha,
                           c.d2h_pinned.alpha, c.launch_s}, "{:12.3e}");
  y += table_row("beta", {c.gemm_fp32.beta, c.gemm_fp16.beta, c.d2d.beta, c.h2d_pinned.beta, c.h2d_pageable.beta,
                          c.d2h_pinned.beta}, "{:12.3e}");
  y += table_row("r^2/sd", {c.gemm_fp32.r2, c.gemm_fp16.r2, c.d2d.r2, c.h2d_pinned.r2, c.h2d_pageable.r2, c.d2h_pinned.r2,
                            c.launch_sd_s}, "{:12.4f}");
  y += fmt::format("# pageable host-to-device rate: {:.3f} GB/s\n", inv(c.h2d_pageable) / 1e9);
  y += fmt::format("name: {}\ndescription: {} and this host, calibrated by placesim calibrate --backend cuda\n", name, c.gpu_name);
  y += fmt::format("source: placesim calibrate, {}\n", date);
  // The GEMM fits per multiply-add (n = x / 2 for a square GEMM's x = 2 n^3 FLOPs: the same line,
  // beta doubled), and Table I's PCIe and launch as records (the link and gpu0 carry them).
  auto per_mac = [](LinearFit f) {
    f.beta *= 2;
    return f;
  };
  y += "calibration:\n  # the linear cost model's fits (schema: models/cost/calibration.hpp): n = m * k * n multiply-adds\n";
  y += fmt::format("  gpu_gemm: {{fp32: {}, fp16: {}}}\n", fit_yaml(per_mac(c.gemm_fp32)), fit_yaml(per_mac(c.gemm_fp16)));
  y += fmt::format("  pcie: {}\n  launch: {:.6e}\ndevices:\n", fit_yaml(c.h2d_pinned), c.launch_s);
  y += fmt::format("  - {{id: host, type: host_memory, memory: {:.0f}}}\n", c.host_memory);
  y += fmt::format("  - {{id: gpu0, type: gpu, model: \"{}\", memory: {:.0f}, memory_bw: {:.6e}, fp32: {:.6e}, tensor: {:.6e}, launch: {:.6e}}}\n",
                   c.gpu_name, c.gpu_memory, 2 * inv(c.d2d), inv(c.gemm_fp32), inv(c.gemm_fp16), c.launch_s);
  y += fmt::format("links:\n  - {{a: host, b: gpu0, bw_ab: {:.6e}, bw_ba: {:.6e}, latency: {:.6e}, kind: pcie}}\n",
                   inv(c.h2d_pinned), inv(c.d2h_pinned), std::max(0.0, c.h2d_pinned.alpha));
  return y;
}

}  // namespace placesim::backend
