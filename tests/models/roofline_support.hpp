// Shared by the roofline tests: an op of given work, and a relative comparison.
#pragma once

#include <gtest/gtest.h>

#include "models/graph.hpp"

namespace placesim::models {

inline Node work(double flops, double bytes) {
  Node n;
  n.name = "op";
  n.type = "matmul";
  n.flops = flops;
  n.bytes = bytes;
  return n;
}

inline void expect_rel(double got, double want) { EXPECT_NEAR(got, want, 1e-12 * want); }

}  // namespace placesim::models
