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
  return d;
}

// k for a requested count (0: all cores), and w_k.
int busy_cores(const hw::Device& dev, int cores) {
  const int k = cores == 0 ? dev.cores : cores;
  PLACESIM_ASSERT(k >= 1 && k <= dev.cores, "cpu core count out of range");
  return k;
}
double contention_at(const hw::Device& dev, int k) {
  return dev.contention.empty() ? 1 : dev.contention[std::min<std::size_t>(k, dev.contention.size()) - 1];
}

}  // namespace

hw::Device on_cores(const hw::Device& dev, int cores) {
  if (dev.kind != hw::DeviceKind::Cpu) return dev;
  const int k = busy_cores(dev, cores);
  return with_peaks_scaled(dev, static_cast<double>(k) / dev.cores / contention_at(dev, k));
}

hw::Device on_one_core(const hw::Device& dev, int busy) {
  if (dev.kind != hw::DeviceKind::Cpu) return dev;
  const int k = busy_cores(dev, busy);
  hw::Device d = with_peaks_scaled(dev, 1.0 / dev.cores / contention_at(dev, k));
  d.memory_bw /= k;
  return d;
}

}  // namespace placesim::models
