// Shared by the collectives tests: a spec over ranks 0..n-1 and the makespan of one lowering.
#pragma once

#include <numeric>
#include <string>
#include <vector>

#include "sim/engine/collectives/collective.hpp"
#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine::test {

// The link of the collectives tests' networks, per direction: B = 10 GB/s (built with latency
// kUs), and that latency in seconds, L = 1 us, for their closed forms.
inline constexpr double kB = 10 * kGBps;
inline constexpr double kL = 1e-6;

inline CollectiveSpec spec_of(CollectiveOp op, const std::string& algorithm, int n, double bytes, int chunks = 1) {
  CollectiveSpec s;
  s.op = op;
  s.algorithm = algorithm;
  s.group.resize(n);
  std::iota(s.group.begin(), s.group.end(), 0);
  s.bytes = bytes;
  s.chunks = chunks;
  return s;
}

// Seconds from 0 to the end of the collective lowered alone into g (whose links `net` added).
inline double makespan_s(TaskGraph& g, const Network& net, const CollectiveSpec& spec) {
  lower_collective(g, spec, net);
  return to_seconds(simulate(g).makespan);
}

}  // namespace placesim::engine::test
