// What a trace format writes: the events of one run, handed over by trace_file.cpp (which walks
// the graph, the trace and the filter the same way for every format) and turned into bytes by
// the format (chrome_trace.hpp: JSON; perfetto_trace.hpp: Perfetto's protobuf).
//
// Order of calls: process() before the first lane, each lane before its tasks, a lane's tasks in
// queue order; counter tracks declared before their samples, before or after the lanes (a trace
// streamed while the run goes writes its usage tracks first, as the samples come), a track's
// samples in time order; finish() last.
#pragma once

#include <cstddef>
#include <string_view>

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace {

// One task that ran, as a lane shows it.
struct TaskEvent {
  engine::QueueId queue;
  std::string_view name;
  engine::TaskKind kind;
  double bytes;
  long long op;  // the graph node it implements, -1 for none
  engine::TaskRecord record;
};

class TraceEvents {
 public:
  virtual ~TraceEvents() = default;
  // Declares a counter track named `name`, counting `series` ("rate", "bytes"): the number
  // counter() knows it by (0, 1, ... in the order declared).
  virtual std::size_t counter_track(std::string_view name, std::string_view series) = 0;
  // The track's value from t on.
  virtual void counter(std::size_t track, TimePs t, double value) = 0;
  // The one process the lanes belong to, before the first lane.
  virtual void process() = 0;
  virtual void lane(engine::QueueId q, std::string_view name) = 0;
  virtual void task(const TaskEvent& e) = 0;
  // Writes what is left to the stream.
  virtual void finish() = 0;
};

}  // namespace placesim::trace
