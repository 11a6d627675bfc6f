// Seeded capability vectors for the asymgroup tests, from the generator's raw output so that
// every standard library draws the same ones.
#pragma once

#include <cstdint>
#include <random>

#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"

namespace asymgroup_test {

namespace ag = placesim::scheduler::asymgroup;

enum class Kind {
  Gpus,        // 1 or 2 GPUs of equal throughput: capability 1 or 2
  Throughputs  // 1 or 2 GPUs, each of a throughput in [0.5, 2): non-integer capabilities
};

inline ag::Capabilities random_caps(int nodes, Kind kind, std::uint32_t seed) {
  std::mt19937 rng(seed);
  ag::Capabilities c(nodes);
  for (double& x : c) {
    const double gpus = 1 + rng() % 2;
    x = kind == Kind::Gpus ? gpus : gpus * (0.5 + 1.5 * (rng() / 4294967296.0));
  }
  return c;
}

}  // namespace asymgroup_test
