// The simulator: runs a TaskGraph to completion under the execution contract (docs/execution.md).
#pragma once

#include <cstddef>
#include <functional>

#include "sim/core/error.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::engine {

struct SimOptions {
  bool record_usage = false;  // fill Trace::usage (for link counter tracks); costs memory
  // With record_usage: where the samples go instead of Trace::usage (not owned; may be null).
  UsageSink* usage_sink = nullptr;
  // Told the tasks finished so far and the total: at the start, each time another
  // `progress_every` have finished (0: never) and at the end, for a progress display (a call per
  // task would cost the event loop more than the display is worth).
  std::function<void(std::size_t done, std::size_t total)> progress;
  std::size_t progress_every = std::size_t{1} << 16;
  // Whether a starting activity may share a rate and a progress clock with those held by the
  // same saturated constraints (rate_groups.hpp, "Shared rates"): the same allocation, and
  // instants equal to those apart within rounding (a few picoseconds), not bit for bit. When it
  // does is decided by what sharing did in the run so far (rate_groups.hpp, "When sharing pays"). Off, every
  // activity keeps its own: tests and benchmarks compare the two.
  bool share_rates = true;
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
