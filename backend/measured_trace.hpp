// A measured run in the simulator's Trace format, so predicted and measured traces of one
// TaskGraph diff task by task (sim/trace/trace_diff.hpp).
//
// A backend records, per task, when it began (its dependencies and queue predecessor done) and
// when it ended, relative to the start of the run. From those this fills what the simulator
// fills: the makespan, per resource the amount consumed (the tasks' amounts, as planned) and
// the busy time (the measured durations of the tasks using it), and per pool the memory in use
// over time (the TaskGraph's buffers replayed at the measured instants). A measured task has
// no separate latency phase: active = start.
#pragma once

#include <vector>

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::backend {

struct TaskTimes {
  TimePs start = -1, end = -1;
};

engine::Trace make_trace(const engine::TaskGraph& g, const std::vector<TaskTimes>& times);

// What a backend returns for its recorded runs: the run with the median makespan (the lower
// median for an even count: one consistent run, never a mix of tasks from different runs, so
// every measured order stays a real one), and every run's makespan in run order, so that a
// report can show how much the repeats spread beside how far the prediction is.
struct Measurement {
  engine::Trace trace;
  std::vector<double> makespans_s;
};
Measurement median_run(std::vector<engine::Trace> runs);

}  // namespace placesim::backend
