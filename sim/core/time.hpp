// Simulated time: an integer count of picoseconds (docs/execution.md, "Time, determinism, memory").
//
// Integer time makes event order exact and results bit-identical across machines. Completion
// instants are computed in double and rounded *up* to the next picosecond, so a task never ends
// before the work it was given is done.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace placesim {

using TimePs = std::int64_t;

inline constexpr TimePs kPsPerSecond = 1'000'000'000'000;
inline constexpr TimePs kTimeNever = std::numeric_limits<TimePs>::max();
// The longest time an input may give (an op's duration, an edge's time, a latency): the clock
// spans 9.2e6 s, and a run adds many such times, so one alone stays well inside it.
inline constexpr double kMaxInputSeconds = 1e6;
// The slowest bandwidth an input may give: a byte in a second. Slower rates (1e-320 B/s) would
// make a transfer's time leave the clock's range.
inline constexpr double kMinInputBandwidth = 1;
// The most work an input may give (an op's flops, a size in bytes): more would take longer than
// the clock spans even at 1e17 FLOP/s or 1e14 B/s, beyond any device; such figures are typos.
inline constexpr double kMaxInputFlops = 1e24;
inline constexpr double kMaxInputBytes = 1e21;

inline double to_seconds(TimePs t) { return static_cast<double>(t) / static_cast<double>(kPsPerSecond); }

// a + b for times >= 0, kTimeNever where the sum would leave the clock's range (a time that
// ceil_ps saturated, added to another, must not wrap around).
inline TimePs add_ps(TimePs a, TimePs b) { return b >= kTimeNever - a ? kTimeNever : a + b; }

// Seconds -> picoseconds, rounded up (a duration is never shortened by rounding).
inline TimePs ceil_ps(double seconds) {
  const double ps = std::ceil(seconds * static_cast<double>(kPsPerSecond));
  if (!(ps < static_cast<double>(kTimeNever))) return kTimeNever;
  return static_cast<TimePs>(ps);
}

}  // namespace placesim
