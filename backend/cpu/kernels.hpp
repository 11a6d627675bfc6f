// The real work a CPU core does for a task (backend/workload.hpp), one function per kind.
//
// gemm: OpenBLAS sgemm on one thread (the caller's: each queue's worker, and each helper of a
// team of cores, is pinned to its own core, so BLAS must not spawn threads of its own). Every
// precision runs in FP32 on the CPU. Row-major, with the row strides given, so a part of a team
// can multiply a block of rows or columns in place.
// stream: dst[i] = a * src[i] + b over two buffers of bytes/2 each: `bytes` of traffic, as the
// roofline counts it. copy: memcpy between separately allocated buffers, so concurrent copies
// really share the memory system. spin: busy until the steady clock has advanced `seconds`:
// the clock itself is the calibration, so the loop needs no iterations-per-second estimate and
// slows down exactly as much as its core is taken from it.
#pragma once

#include <cstddef>

namespace placesim::backend::cpu {

void use_one_blas_thread();  // call once before any gemm from several threads
// C[m x n] (row stride ldc) = A[m x k] (lda) * B[k x n] (ldb)
void gemm(const float* a, const float* b, float* c, long m, long n, long k, long lda, long ldb, long ldc);
void stream(const float* src, float* dst, std::size_t floats);
void copy(const void* src, void* dst, std::size_t bytes);
void spin(double seconds);

}  // namespace placesim::backend::cpu
