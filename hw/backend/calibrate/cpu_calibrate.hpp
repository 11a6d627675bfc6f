// `placesim calibrate --backend cpu`: microbenchmarks of this machine's cores, each fitted as
// t = alpha + beta * x (ScheInfer Eq. 3, Table I), and the hardware file they make.
//
//   gemm        one core, OpenBLAS sgemm, t vs FLOPs over the shapes a small transformer
//               layer uses (m tokens x k x n)              -> fp32 = 1 / beta
//   stream      one core, dst = a*src + b, t vs bytes moved -> memory_bw = 1 / beta
//   copy        one core, memcpy, t vs bytes               -> core link bw = 1 / beta
//   copy_all    every core copying at once: the memory system's aggregate copy rate
//                                                          -> host link bw
//   handoff     the CPU backend's own cost of passing control between two queues (an empty
//               task waiting on another queue's task), added to the link latency
//   launch      the CPU backend's per-task cost on one queue (empty tasks): mean and standard
//               deviation, as Table I gives for its constant launch time
//   contention  k cores running the same GEMM at once: per-core slowdown for k = 1..cores
//               (Chrion's W matrix)
// Each timing is the median of `repeats` runs on a thread pinned to its core.
#pragma once

#include <string>
#include <vector>

#include "hw/backend/calibrate/linear_fit.hpp"

namespace placesim::backend {

struct CpuCalibration {
  int cores = 1;
  double memory_bytes = 0;
  LinearFit gemm, stream, copy;
  double copy_all_bw = 0;     // bytes/s, all cores together
  double handoff_s = 0;
  double launch_s = 0, launch_sd_s = 0;
  std::vector<double> contention;  // [k-1]: slowdown with k cores busy
};

struct CalibrateOptions {
  int cores = 0;     // 0: every PU of this machine
  int repeats = 5;
};

CpuCalibration calibrate_cpu(const CalibrateOptions& opts);

// The hardware file (hw/topology_yaml.hpp schema): a host memory, a `mem` switch for the memory
// system, and one single-core CPU device per core, linked to `mem` at the one-core copy rate,
// with host <-> mem at the all-core rate, so copies to several cores contend there as they do
// in DRAM. The fits, their r^2 and the contention curve are written as comments in the form of
// ScheInfer's Table I. `command` is recorded in the header.
std::string cpu_hardware_yaml(const CpuCalibration& c, const std::string& name, const std::string& command);

}  // namespace placesim::backend
