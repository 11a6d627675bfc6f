// The BLAS module's one export (blas_api.hpp).
#include <cblas.h>

#include "backend/cpu/blas/blas_api.hpp"
#include "sim/core/module.hpp"

namespace {

void set_num_threads(int threads) { openblas_set_num_threads(threads); }

void sgemm(const float* a, const float* b, float* c, long m, long n, long k, long lda, long ldb, long ldc) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(m), static_cast<blasint>(n),
              static_cast<blasint>(k), 1.0f, a, static_cast<blasint>(lda), b, static_cast<blasint>(ldb), 0.0f, c,
              static_cast<blasint>(ldc));
}

}  // namespace

PLACESIM_MODULE_ENTRY const void* placesim_module_blas() {
  static const placesim::backend::cpu::BlasApi api{&set_num_threads, &sgemm};
  return &api;
}
