// `placesim calibrate --backend cpu`: microbenchmarks of this machine's cores, fitted as
// t = alpha + beta * x (ScheInfer Eq. 3, Table I), from which the hardware file's one CPU device
// is made (hw/backend/calibrate/cpu_hardware_file.hpp).
//
//   gemm          one core, OpenBLAS sgemm over the shapes of transformer and LSTM layers
//                 (m = 8 .. 256 rows, k x n = 1024 x 1024 .. 1024 x 4096), B coming from DRAM
//                 as a layer's weights do: t = alpha + beta * FLOPs + beta2 * bytes. A CPU core
//                 streams B in (OpenBLAS packs it) and multiplies it one after the other, so
//                 the two times add                         -> fp32 = cores / beta, overlap
//   stream_dram   one core, dst = a*src + b over buffers past the last-level cache, t vs bytes
//                                                           -> memory_bw = 1 / beta
//   stream_cache  one core, the same over buffers within its private cache, already in it
//                                                           -> cache_bw = cores / beta, cache
//   copy          one core, memcpy past the last-level cache -> the host link's bw
//   copy_all      every core copying at once: the memory system's aggregate copy rate
//                                                           -> host memory_bw
//   contention    k = 1 .. cores cores each running its own single-threaded GEMM at once:
//                 contention[k-1] = a core's time with k busy / its time alone (Chrion's W
//                 matrix; at least 1: a core is never faster for busy neighbours)
//   launch        the CPU backend's per-task cost on one queue (empty tasks): median and
//                 standard deviation over the rounds, as Table I gives for its launch time
//   handoff       the CPU backend's cost of passing control between two queues (an empty task
//                 waiting on another queue's task), added to the link latency
// Every point is measured once per round, rounds interleaved (A B C A B C ...), and keeps its
// median (hw/backend/calibrate/interleaved.hpp). Each fit must have a non-negative intercept
// and r^2 >= 0.95 (require_usable), else CalibrationError names it and nothing is written.
#pragma once

#include <string>
#include <vector>

#include "hw/backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CpuCalibration {
  int cores = 1;
  int rounds = 0;
  double memory_bytes = 0;
  double cache_bytes = 0;          // one core's private cache (the stream_cache sizes fit in it)
  LinearFit gemm;                  // x = FLOPs, x2 = bytes
  LinearFit stream_dram, stream_cache, copy;  // x = bytes
  double copy_all_bw = 0;          // bytes/s, all cores together
  double handoff_s = 0;
  double launch_s = 0, launch_sd_s = 0;
  std::vector<double> contention;  // [k-1]: per-core slowdown with k cores busy; [0] = 1
};

struct CalibrateOptions {
  int cores = 0;     // 0: every PU of this machine
  int repeats = 7;   // recorded rounds (cuda: timings per measurement)
};

// Throws CalibrationError when a fit is not usable.
CpuCalibration calibrate_cpu(const CalibrateOptions& opts);

// The fits a calibration must pass, by the names its messages use (require_usable).
void require_usable_fits(const CpuCalibration& c);

}  // namespace placesim::backend
