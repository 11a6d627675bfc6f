// The simulator: runs a TaskGraph to completion under the execution contract (DESIGN.md).
#pragma once

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::engine {

struct SimOptions {
  bool record_usage = false;  // fill Trace::usage (for link counter tracks); costs memory
};

// Throws InputError when the graph cannot finish: a queue order that contradicts the
// dependencies (the message names a blocked task and what it waits for), or an activity whose
// rate would take it past the largest representable time (about 106 days; named).
Trace simulate(const TaskGraph& g, const SimOptions& opts = {});

}  // namespace placesim::engine
