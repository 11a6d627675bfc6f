// Roofline cost: an op is bound either by compute or by memory traffic, plus two constants per
// op: the kernel launch and the framework's host-side dispatch (op_overhead), which dominate
// small ops (Chrion's LSTM cells take ~50 us on a GTX 1080 Ti for well under 1 us of work).
//
//   duration = launch_s + op_overhead_s + max(flops / peak(dtype), bytes / memory_bw)
//   peak(fp32)      = fp32_flops
//   peak(fp16/bf16) = tensor_flops if > 0, else fp32_flops
//   peak(int8/int4) = int8_ops if > 0, else peak(fp16)
//
// Explicit per-device durations on a node replace the formula (launch included). A Param node
// takes no time; a device that does not compute, or lacks the peak or bandwidth an op needs,
// cannot run it (kCannotRun, never a division by zero).
#include "models/cost/cost_model.hpp"

#include <algorithm>

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
    if (!(dev.memory_bw > 0)) return kCannotRun;
    memory = op.bytes / dev.memory_bw;
  }
  return dev.launch_s + dev.op_overhead_s + std::max(compute, memory);
}

}  // namespace placesim::models
