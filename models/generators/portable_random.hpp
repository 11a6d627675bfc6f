// Draws that give the same numbers on every platform for a seed: std::mt19937_64's output is
// fixed by the standard, the std distributions' mapping of it is not (it differs between
// standard libraries), so the generators map it to numbers here.
#pragma once

#include <cstdint>
#include <random>

namespace placesim::models {

// Uniform on [0, 1) from the top 53 bits.
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

inline double uniform(std::mt19937_64& rng, double lo, double hi) { return lo + (hi - lo) * uniform01(rng); }

// Uniform on {0 .. n-1}, n >= 1, by rejection of the incomplete top block (no modulo bias).
inline std::uint64_t uniform_index(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  std::uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % n;
}

}  // namespace placesim::models
