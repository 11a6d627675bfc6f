#include "backend/cpu/kernels.hpp"

#include <chrono>
#include <cstring>

#include "backend/cpu/blas/blas_api.hpp"
#include "sim/core/module.hpp"

namespace placesim::backend::cpu {

namespace {
// Looked up once: gemm runs inside measured tasks.
const BlasApi& blas() {
  static const BlasApi& api = module_api<BlasApi>("blas");
  return api;
}
}  // namespace

void use_one_blas_thread() { blas().set_num_threads(1); }

void gemm(const float* a, const float* b, float* c, long m, long n, long k, long lda, long ldb, long ldc) {
  blas().sgemm(a, b, c, m, n, k, lda, ldb, ldc);
}

void stream(const float* src, float* dst, std::size_t floats) {
  for (std::size_t i = 0; i < floats; ++i) dst[i] = 0.5f * src[i] + 1.0f;
}

void copy(const void* src, void* dst, std::size_t bytes) { std::memcpy(dst, src, bytes); }

void spin(double seconds) {
  using clock = std::chrono::steady_clock;
  const auto until = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  while (clock::now() < until) {
  }
}

}  // namespace placesim::backend::cpu
