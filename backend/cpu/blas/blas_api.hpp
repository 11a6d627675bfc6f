// OpenBLAS in a module of its own (libplacesim_blas.so, sim/core/module.hpp): loading it starts
// OpenBLAS's thread pool, whose threads each map a 128 MB buffer, retrying for ever when memory
// is short (a run under `ulimit -v` then hung at exit joining them). Only the CPU backend's GEMMs
// load it: `validate --backend cpu` and `calibrate`.
#pragma once

namespace placesim::backend::cpu {

struct BlasApi {
  void (*set_num_threads)(int threads);
  // Row-major C[m x n] = A[m x k] * B[k x n], FP32, with row strides.
  void (*sgemm)(const float* a, const float* b, float* c, long m, long n, long k, long lda, long ldb, long ldc);
};

}  // namespace placesim::backend::cpu
