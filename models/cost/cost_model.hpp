// How long an op takes on a device (DESIGN.md, "CostModel").
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

// Roofline: launch + max(flops / peak, bytes / memory_bw), where peak is the FP32 peak for
// fp32 and the tensor peak (INT8 peak for int8/int4) when the device has one. Explicit
// per-device durations on a node take precedence.
class RooflineCost final : public CostModel {
 public:
  std::string name() const override { return "roofline"; }
  double duration(const Node& op, const hw::Device& dev, DType dtype) const override;
  static double peak_flops(const hw::Device& dev, DType dtype);
};

}  // namespace placesim::models
