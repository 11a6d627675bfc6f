// The critical path of a DAG: the longest path when each node v takes node_time(v) and each
// edge e adds edge_time(e) (none when not given):
//
//   finish(v) = node_time(v) + max over in-edges e = (u, v) of (finish(u) + edge_time(e)),  0 when none
//   length    = max over v of finish(v)
//
// With each op at its fastest device, free communication and parameters at 0, `length` is
// SortingHat's critical-path lower bound (docs/placers.md, `critical-path`). Ties go to the first
// in-edge and the first node in topological order, so the path is deterministic.
#pragma once

#include <functional>
#include <vector>

#include "models/graph.hpp"

namespace placesim::models {

struct CriticalPath {
  double length = 0;
  std::vector<int> nodes;  // from the path's first node to its last
};

// `g` must be validated.
CriticalPath critical_path(const Graph& g, const std::function<double(int node)>& node_time,
                           const std::function<double(int edge)>& edge_time = {});

}  // namespace placesim::models
