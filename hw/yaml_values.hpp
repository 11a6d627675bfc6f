// Checked quantities for topology files: each reads a value with its unit and fails at the
// value's location when it is out of range (zero bandwidth, negative latency, ...).
#pragma once

#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

double positive_size(const Yaml& v);           // "32GiB" > 0
double positive_rate(const Yaml& v);           // "15.7TFLOPS" > 0
double nonnegative_duration(const Yaml& v);    // "1us" >= 0
int positive_count(const Yaml& v);             // whole number >= 1

}  // namespace placesim::hw
