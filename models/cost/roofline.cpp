// Roofline cost: an op is bound either by compute or by memory traffic, plus the kernel launch.
// The runtime's host-side dispatch of each op (hw::Device::dispatch_s, which dominates small ops:
// Chrion's LSTM cells take ~50 us on a GTX 1080 Ti for well under 1 us of work) is not device
// time: lower() makes it a task on a host dispatch thread (docs/execution.md, "The runtime").
//
//   c = flops / peak(dtype),  m = bytes / bw(bytes)
//   duration = launch_s + max(c, m) + (1 - overlap) * min(c, m)
//   peak(fp32)      = fp32_flops
//   peak(fp16/bf16) = tensor_flops if > 0, else fp32_flops
//   peak(int8/int4) = int8_ops if > 0, else peak(fp16)
//   bw(bytes)       = cache_bw if bytes <= cache_bytes (and the device has a cache), else memory_bw
//
// overlap = 1 (the default) is the classic roofline, max(c, m): memory traffic hides under
// arithmetic or the other way round. A CPU core running OpenBLAS packs a GEMM's operand (memory
// bound) and then multiplies it (compute bound), one after the other: `placesim calibrate`
// fits c + m to its GEMMs (r^2 above 0.999 on our machine) and writes overlap 0. An op small
// enough to fit in the cache finds its data there (its producer has just written it), so it
// moves at the cache's rate, not DRAM's.
//
// Explicit per-device durations on a node replace the formula (launch included). A Param node
// takes no time; a device that does not compute, or lacks the peak or bandwidth an op needs,
// cannot run it (kCannotRun, never a division by zero).
#include "models/cost/cost_model.hpp"

#include <algorithm>

#include "models/cost/cost_models.hpp"

namespace placesim::models {

double RooflineCost::peak_flops(const hw::Device& dev, DType dtype) {
  switch (dtype) {
    case DType::FP32:
      return dev.fp32_flops;
    case DType::INT8:
    case DType::INT4:
      if (dev.int8_ops > 0) return dev.int8_ops;
      [[fallthrough]];
    case DType::FP16:
    case DType::BF16:
      return dev.tensor_flops > 0 ? dev.tensor_flops : dev.fp32_flops;
  }
  PLACESIM_ASSERT(false, "unknown DType value");
  return 0;
}

double RooflineCost::duration(const Node& op, const hw::Device& dev, DType dtype) const {
  if (op.kind == NodeKind::Param) return 0;
  if (!dev.is_compute()) return kCannotRun;
  if (!op.durations.empty()) {
    auto it = op.durations.find(dev.id);
    return it == op.durations.end() ? kCannotRun : it->second;
  }
  double compute = 0, memory = 0;
  if (op.flops > 0) {
    const double peak = peak_flops(dev, dtype);
    if (!(peak > 0)) return kCannotRun;
    compute = op.flops / peak;
  }
  if (op.bytes > 0) {
    const double bw = memory_rate(dev, op.bytes);
    if (!(bw > 0)) return kCannotRun;
    memory = op.bytes / bw;
  }
  return dev.launch_s + std::max(compute, memory) + (1 - dev.overlap) * std::min(compute, memory);
}

double RooflineCost::memory_rate(const hw::Device& dev, double bytes) {
  return dev.cache_bw > 0 && bytes <= dev.cache_bytes ? dev.cache_bw : dev.memory_bw;
}

void register_roofline(Registry<CostModelEntry>& r) {
  r.add("roofline", {"launch + compute or memory bound (their overlap per device); a node's "
                     "per-device durations replace it",
                     {}, [](const Yaml&, const hw::Topology&, const Graph&) { return std::make_shared<const RooflineCost>(); }});
}

}  // namespace placesim::models
