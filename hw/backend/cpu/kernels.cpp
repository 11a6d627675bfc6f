#include "hw/backend/cpu/kernels.hpp"

#include <cblas.h>

#include <chrono>
#include <cstring>

namespace placesim::backend::cpu {

void use_one_blas_thread() { openblas_set_num_threads(1); }

void gemm(const float* a, const float* b, float* c, long m, long n, long k, long lda, long ldb, long ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0f, a, static_cast<blasint>(lda), b, static_cast<blasint>(ldb), 0.0f, c,
              static_cast<blasint>(ldc));
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
