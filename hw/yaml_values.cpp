#include "hw/yaml_values.hpp"

#include <fmt/format.h>
#include <limits>

namespace placesim::hw {

double positive_size(const Yaml& v) {
  const double x = v.bytes();
  if (!(x > 0)) v.fail(fmt::format("expected a positive size such as 32GiB, got '{}'", v.str()));
  return x;
}

double positive_rate(const Yaml& v) {
  const double x = v.flops();
  if (!(x > 0)) v.fail(fmt::format("expected a positive compute rate such as 15.7TFLOPS, got '{}'", v.str()));
  return x;
}

double nonnegative_duration(const Yaml& v) {
  const double x = v.duration();
  if (!(x >= 0)) v.fail(fmt::format("expected a non-negative duration such as 1us, got '{}'", v.str()));
  return x;
}

int positive_count(const Yaml& v) {
  const std::int64_t x = v.integer();
  if (x < 1 || x > std::numeric_limits<int>::max())
    v.fail(fmt::format("expected a positive whole number, got '{}'", v.str()));
  return static_cast<int>(x);
}

}  // namespace placesim::hw
