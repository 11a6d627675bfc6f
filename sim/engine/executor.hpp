// The simulator: runs a TaskGraph to completion under the execution contract (DESIGN.md).
#pragma once

#include "sim/core/error.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::engine {

struct SimOptions {
  bool record_usage = false;  // fill Trace::usage (for link counter tracks); costs memory
};

// The graph cannot finish because of task `task`: it is blocked for good, or would end past the
// largest representable time. The engine knows tasks, not files: whoever built the graph from
// a file (scheduler::score_plan) locates the task there.
struct TaskError : InputError {
  TaskError(TaskId task, const std::string& what) : InputError(what), task(task) {}
  TaskId task;
};

// Throws TaskError when the graph cannot finish: a queue order that contradicts the
// dependencies (the message names a blocked task and what it waits for), or an activity whose
// rate would take it past the largest representable time (about 106 days; named).
Trace simulate(const TaskGraph& g, const SimOptions& opts = {});

}  // namespace placesim::engine
