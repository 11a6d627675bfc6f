#include "models/cost/cost_model.hpp"

#include <algorithm>

namespace placesim::models {

hw::Device on_cores(const hw::Device& dev, int cores) {
  if (dev.kind != hw::DeviceKind::Cpu) return dev;
  const int k = cores == 0 ? dev.cores : cores;
  PLACESIM_ASSERT(k >= 1 && k <= dev.cores, "cpu core count out of range");
  double w = 1;
  if (!dev.contention.empty()) w = dev.contention[std::min<std::size_t>(k, dev.contention.size()) - 1];
  const double scale = static_cast<double>(k) / dev.cores / w;
  hw::Device d = dev;
  d.fp32_flops *= scale;
  d.tensor_flops *= scale;
  d.int8_ops *= scale;
  d.cache_bw *= scale;
  if (dev.core_memory_bw > 0) d.memory_bw = std::min(dev.memory_bw, dev.core_memory_bw * k / w);
  return d;
}

}  // namespace placesim::models
