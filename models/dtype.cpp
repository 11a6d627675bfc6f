#include "models/dtype.hpp"

#include "sim/core/error.hpp"

namespace placesim::models {

namespace {
struct DTypeInfo {
  DType type;
  const char* name;
  double bytes;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::FP32, "fp32", 4.0}, {DType::FP16, "fp16", 2.0}, {DType::BF16, "bf16", 2.0},
    {DType::INT8, "int8", 1.0}, {DType::INT4, "int4", 0.5},
};

const DTypeInfo& info(DType t) {
  for (const auto& d : kDTypes)
    if (d.type == t) return d;
  PLACESIM_ASSERT(false, "unknown DType value");
  return kDTypes[0];
}
}  // namespace

double bytes_per_element(DType t) { return info(t).bytes; }

DType activation_dtype(DType model) {
  return model == DType::INT8 || model == DType::INT4 ? DType::FP16 : model;
}

const char* to_string(DType t) { return info(t).name; }

DType parse_dtype(const std::string& s) {
  for (const auto& d : kDTypes)
    if (s == d.name) return d.type;
  throw InputError("unknown dtype '" + s + "' (expected fp32, fp16, bf16, int8 or int4)");
}

}  // namespace placesim::models
