// Seeded random hardware and blocks for the ScheInfer solver's tests: fits spread a decade or
// more either side of Table I's, so every edge of Eq. 13 wins somewhere; dense blocks (three
// equal GEMMs, as LLaMA's gate/up/down) and MoE-like ones (experts of unequal token loads).
#pragma once

#include <cmath>
#include <random>

#include "scheduler/placers/offload/solver.hpp"

namespace scheinfer_test {

namespace si = placesim::scheduler::scheinfer;

// 10^u for u uniform in [lo, hi).
inline double decades(std::mt19937& rng, double lo, double hi) {
  return std::pow(10.0, std::uniform_real_distribution<double>(lo, hi)(rng));
}

inline si::Hardware random_hardware(std::mt19937& rng) {
  si::Hardware hw;
  hw.gpu = {decades(rng, -7.5, -5), decades(rng, -12.5, -11)};
  hw.cpu = {decades(rng, -7, -3.5), decades(rng, -12, -9.5)};
  hw.c2g = {decades(rng, -6, -4.5), decades(rng, -11.5, -9.5)};
  hw.launch = decades(rng, -5.5, -4);
  return hw;
}

// T tokens through one MLP of M x H weights at `bytes` per parameter: three GEMMs of T M H.
inline si::Block dense(double T, double M, double H, double bytes) {
  const si::Gemm g{T * M * H, M * H * bytes};
  return {{g, g, g}};
}

inline si::Block random_dense(std::mt19937& rng) {
  const double T = 1 + rng() % 8, M = 1024 * (1 + rng() % 8), H = 1024 * (2 + rng() % 27);
  return dense(T, M, H, rng() % 2 ? 2.0 : 0.5);
}

// 2..8 experts, each three GEMMs of its own token load (0..6 tokens: an idle expert still has
// GEMMs of no work) and its own H.
inline si::Block random_moe(std::mt19937& rng) {
  const int experts = 2 + static_cast<int>(rng() % 7);
  const double M = 1024 * (1 + rng() % 8), bytes = rng() % 2 ? 2.0 : 0.5;
  si::Block b;
  for (int e = 0; e < experts; ++e) {
    const double tokens = rng() % 7, H = 512 * (1 + rng() % 28);
    for (int k = 0; k < 3; ++k) b.gemms.push_back({tokens * M * H, M * H * bytes});
  }
  return b;
}

}  // namespace scheinfer_test
