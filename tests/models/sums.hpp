// Totals over a graph, for the model tests.
#pragma once

#include "models/graph.hpp"

namespace placesim::models::test {

struct Totals {
  double flops = 0, bytes = 0, state_bytes = 0, param_bytes = 0;
  int ops = 0, params = 0;
};

inline Totals totals(const Graph& g) {
  Totals t;
  for (const Node& n : g.nodes) {
    if (n.kind == NodeKind::Param) {
      t.param_bytes += n.param_bytes;
      ++t.params;
    } else {
      t.flops += n.flops;
      t.bytes += n.bytes;
      t.state_bytes += n.state_bytes;
      ++t.ops;
    }
  }
  return t;
}

}  // namespace placesim::models::test
