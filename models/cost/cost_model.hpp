// How long an op takes on a device (README.md, "Cost models").
#pragma once

#include <limits>
#include <string>

#include "hw/topology.hpp"
#include "models/graph.hpp"

namespace placesim::models {

inline constexpr double kCannotRun = std::numeric_limits<double>::infinity();

class CostModel {
 public:
  virtual ~CostModel() = default;
  virtual std::string name() const = 0;
  // Seconds the op takes on the whole device; kCannotRun when it cannot run there (a node with
  // explicit durations that does not list the device, or a device that does not compute).
  virtual double duration(const Node& op, const hw::Device& dev, DType dtype) const = 0;
};

// A CPU as seen by work on `cores` of its cores (docs/execution.md, "CPU cores"; Chrion's W matrix):
// k cores' share of each compute peak, each core slowed by the contention factor w_k for k busy
// cores:
//   peak_k = peak * (k / cores) / w_k,   w_k = contention[k-1]; past the curve's end its last
//                                        factor; 1 without a curve
// for fp32, tensor and int8 peaks alike, and for the cache bandwidth (each core brings its own
// cache, so k cores have k/cores of it). Memory bandwidth and launch cost are the socket's and
// stay (the curve already prices sharing the memory system per core; the launch is paid once
// per op, however many cores run it), except on a CPU that says how fast one core
// reaches DRAM (core_memory_bw, from calibration: a core alone cannot fill the socket's bandwidth):
//   memory_bw_k = min(memory_bw, k * core_memory_bw / w_k)
// so that W = k * d_k = d_1 * w_k holds for memory-bound work as for compute. k = 0 means all
// cores, so a plan that states no count gets the device's figures slowed by w_cores. A device
// that is not a CPU is returned unchanged; k outside [0, cores] is a broken invariant (plans are
// checked first). A node's explicit per-device durations are looked up by id and so are not
// scaled. The view records the count as given (Device::run_cores = busy_cores = cores) for cost
// models that scale per thread count rather than per peak.
hw::Device on_cores(const hw::Device& dev, int cores);

// One core of a CPU while `busy` of its cores are busy (Chrion's W(v, k)): one core's share of
// each peak and of the cache rate slowed by w_k, and 1/k of memory_bw_k (the k busy cores share
// it), while the launch stays whole: the core that runs the op pays it once. So
// an op's roofline time on one of k busy cores is
//   W_k = c + k (d_k - c),   d_k its time on_cores(dev, k),  c = launch,
// which is k d_k when c = 0. busy = 0 means all cores; the other rules are on_cores'. The view
// records run_cores = 1 and busy_cores = busy.
hw::Device on_one_core(const hw::Device& dev, int busy);

// The contention factor w_k of a CPU with k >= 1 busy cores (as on_cores uses it): contention[k-1],
// past the curve's end its last factor, 1 without a curve.
double contention_at(const hw::Device& dev, int k);

// Roofline: launch + max(c, m) + (1 - overlap) * min(c, m), with c = flops / peak
// and m = bytes / (cache_bw when the bytes fit in the device's cache, else memory_bw), where
// peak is the FP32 peak for fp32 and the tensor peak (INT8 peak for int8/int4) when the device
// has one (models/cost/roofline.cpp). Explicit per-device durations on a node take precedence.
class RooflineCost final : public CostModel {
 public:
  std::string name() const override { return "roofline"; }
  double duration(const Node& op, const hw::Device& dev, DType dtype) const override;
  static double peak_flops(const hw::Device& dev, DType dtype);
  // Bytes/s at which an op moving `bytes` reaches its data on `dev` (0: it cannot).
  static double memory_rate(const hw::Device& dev, double bytes);
};

}  // namespace placesim::models
