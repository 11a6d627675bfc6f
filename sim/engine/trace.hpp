// What an executor records about one run of a TaskGraph, predicted or measured, in one format,
// so that two traces of the same TaskGraph can be diffed task by task.
#pragma once

#include <string>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"

namespace placesim::engine {

struct TaskRecord {
  TimePs start = -1;   // all deps and queue predecessor done: the latency phase begins
  TimePs active = -1;  // latency over: the task becomes an activity
  TimePs end = -1;
};

// A piecewise-constant series: value holds from t until the next sample's t.
struct Sample {
  TimePs t;
  double value;
};

struct Trace {
  std::vector<TaskRecord> tasks;  // indexed by TaskId
  TimePs makespan = 0;
  std::vector<double> consumed;   // per resource: total amount consumed (bytes for a link)
  std::vector<double> busy_s;     // per resource: consumed / capacity (seconds of full use)
  std::vector<double> peak_memory;              // per pool, bytes
  std::vector<std::vector<Sample>> memory;      // per pool, bytes in use over time, from t = 0
  // per resource, rate of use over time (sum of amount * rate over its activities), one sample
  // per change, 0 before the first; the series stay empty unless SimOptions::record_usage
  std::vector<std::vector<Sample>> usage;
};

}  // namespace placesim::engine
