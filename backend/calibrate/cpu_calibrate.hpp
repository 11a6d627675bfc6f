// `placesim calibrate --backend cpu`: microbenchmarks of this machine's cores, fitted as
// t = alpha + beta * x (ScheInfer Eq. 3, Table I), from which the hardware file's one CPU device
// is made (backend/calibrate/cpu_hardware_file.hpp).
//
//   gemm          one core, OpenBLAS sgemm over the shapes of transformer and LSTM layers
//                 (m = 8 .. 128 rows times k x n = 1024 x 1024 .. 2048 x 4096 weights coming
//                 from DRAM, as a layer's do): t = alpha + beta * FLOPs + beta2 * bytes. A core
//                 streams B in (OpenBLAS packs it) and then multiplies, one after the other, so
//                 the two times add                       -> fp32, the DRAM rate, overlap 0
//   stream_cache  one core, dst = a*src + b over buffers within its private cache, already in
//                 it, t vs bytes                          -> cache_bw, cache
//   copy          one core, memcpy of buffers past the last-level cache, t vs bytes
//                                                         -> the host link's bw and latency
//   copy_all      every core copying at once: the memory system's aggregate copy rate
//                                                         -> host memory_bw
//   contention    k = 1 .. cores cores each running its own single-threaded GEMM (its weights
//                 in cache: arithmetic and caches shared, not DRAM) at once: contention[k-1] =
//                 a core's time with k busy / its time alone (Chrion's W matrix; at least 1: a
//                 core is never faster for busy neighbours)
//   gemm_all      the same shapes, each split over every core as the backend runs an op on k
//                 cores, fitted alike: 1 / beta2 is the DRAM rate of all cores together
//                                                         -> memory_bw
//   launch        the CPU backend's per-task cost on one queue (empty tasks): median and
//                 standard deviation over the rounds, as Table I gives for its launch time
//   handoff       the CPU backend's cost of passing control between two queues (an empty task
//                 waiting on another queue's task), added to the link latency
//   dispatch      the CPU backend as a runtime (docs/execution.md, "The runtime"): a host thread
//                 dispatches empty ops to core 0 one after another, each after the last has
//                 ended; its time per op less the launch  -> the CPU's `dispatch`, and a
//                 `runtime: {dispatch_threads: 1}`
// Every point is measured once per round, rounds interleaved (A B C A B C ...), and keeps its
// median (backend/calibrate/interleaved.hpp), on threads pinned to cores 0 .. cores-1.
// Interleaving evens out a short disturbance; a long one (another process on the cores for the
// whole run) would slow every point alike and still fit well, so the calibrating thread's CPU
// time over its single-threaded points is compared with their wall time (core_share).
#pragma once

#include <string>
#include <vector>

#include "backend/calibrate/interleaved.hpp"
#include "backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CpuCalibration {
  int cores = 1;
  int rounds = 0;
  double memory_bytes = 0;
  double cache_bytes = 0;          // one core's private cache (the stream_cache sizes fit in it)
  LinearFit gemm;                  // x = FLOPs, x2 = bytes
  LinearFit gemm_all;              // the same, each GEMM split over every core
  // The same times against n = m * k * n multiply-adds alone (ScheInfer's n_GEMM): the cpu_gemm
  // fits on 1 and on every core that the linear cost model reads (models/cost/calibration.hpp).
  LinearFit gemm_line, gemm_all_line;
  LinearFit stream_cache, copy;    // x = bytes
  double copy_all_bw = 0;          // bytes/s, all cores together
  double handoff_s = 0;
  double launch_s = 0, launch_sd_s = 0;
  double dispatch_s = 0;           // the backend's dispatch per op on a runtime thread
  std::vector<double> contention;  // [k-1]: per-core slowdown with k cores busy; [0] = 1
  double core_share = 1;           // CPU time / wall time of the single-threaded points
};

// Below this share of its core, a calibration measured a busy machine, not this one.
inline constexpr double kMinCoreShare = 0.9;

struct CalibrateOptions {
  int cores = 0;     // 0: every PU of this machine
  int repeats = 7;   // recorded rounds (cuda: timings per measurement)
  MeasureProgress progress;  // cpu: the measurements done, from the calibrating thread
};

// Measures; the fits are checked by require_usable_fits.
CpuCalibration calibrate_cpu(const CalibrateOptions& opts);

// The calibrating thread must have had its core (core_share >= kMinCoreShare) and each fit
// an intercept that is not negative and r^2 >= 0.95 (require_usable), the cpu_gemm fits an
// intercept of at least 0 (the linear cost model reads it as a start-up time); else
// CalibrationError says which and nothing may be written.
void require_usable_fits(const CpuCalibration& c);

}  // namespace placesim::backend
