#include "models/cost/cost_model.hpp"

#include <algorithm>

namespace placesim::models {

namespace {

// The CPU's figures with each peak scaled by `scale`.
hw::Device with_peaks_scaled(const hw::Device& dev, double scale) {
  hw::Device d = dev;
  d.fp32_flops *= scale;
  d.tensor_flops *= scale;
  d.int8_ops *= scale;
  d.cache_bw *= scale;
  return d;
}

// The DRAM rate k busy cores reach together: the socket's, or less where one core alone cannot
// fill it (core_memory_bw, from calibration).
double memory_bw_at(const hw::Device& dev, int k, double w) {
  return dev.core_memory_bw > 0 ? std::min(dev.memory_bw, dev.core_memory_bw * k / w) : dev.memory_bw;
}

// k for a requested count (0: all cores), and w_k.
int busy_cores(const hw::Device& dev, int cores) {
  const int k = cores == 0 ? dev.cores : cores;
  PLACESIM_ASSERT(k >= 1 && k <= dev.cores, "cpu core count out of range");
  return k;
}

}  // namespace

double contention_at(const hw::Device& dev, int k) {
  return dev.contention.empty() ? 1 : dev.contention[std::min<std::size_t>(k, dev.contention.size()) - 1];
}

hw::Device on_cores(const hw::Device& dev, int cores) {
  if (dev.kind != hw::DeviceKind::Cpu) return dev;
  const int k = busy_cores(dev, cores);
  const double w = contention_at(dev, k);
  hw::Device d = with_peaks_scaled(dev, static_cast<double>(k) / dev.cores / w);
  d.memory_bw = memory_bw_at(dev, k, w);
  d.run_cores = d.busy_cores = cores;
  return d;
}

hw::Device on_one_core(const hw::Device& dev, int busy) {
  if (dev.kind != hw::DeviceKind::Cpu) return dev;
  const int k = busy_cores(dev, busy);
  const double w = contention_at(dev, k);
  hw::Device d = with_peaks_scaled(dev, 1.0 / dev.cores / w);
  d.memory_bw = memory_bw_at(dev, k, w) / k;
  d.run_cores = 1;
  d.busy_cores = busy;
  return d;
}

}  // namespace placesim::models
