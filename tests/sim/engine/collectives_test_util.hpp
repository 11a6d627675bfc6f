// Shared by the collectives tests: a spec over ranks 0..n-1 and the makespan of one lowering.
#pragma once

#include <numeric>
#include <string>
#include <vector>

#include "sim/engine/collectives/collective.hpp"
#include "sim/engine/executor.hpp"

namespace placesim::engine::test {

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
