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
  // per change, 0 before the first; the series stay empty unless SimOptions::record_usage, and
  // when a UsageSink takes the samples instead
  std::vector<std::vector<Sample>> usage;
};

// Takes the usage samples of a run as the engine makes them, in place of Trace::usage
// (SimOptions::usage_sink): a trace written while the run goes holds none of them in memory.
class UsageSink {
 public:
  virtual ~UsageSink() = default;
  // The run's graph, before any sample.
  virtual void begin(const TaskGraph& g) = 0;
  // Whether to record resource r at all (asked once per resource, after begin): the engine
  // computes no load for a resource nobody wants.
  virtual bool wants(ResourceId r) const = 0;
  // r's rate of use from s.t on (a change from its last sample; 0 before the first). Samples
  // come in time order.
  virtual void sample(ResourceId r, const Sample& s) = 0;
};

}  // namespace placesim::engine
