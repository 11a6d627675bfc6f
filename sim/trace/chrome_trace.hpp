// Chrome trace-event JSON of one run of a TaskGraph, for Perfetto (ui.perfetto.dev) and
// chrome://tracing: the timeline a user opens to see why a plan is slow.
//
// Format (the "JSON Object Format" of the Trace Event Format document):
//   * one process (pid 1, named "placesim");
//   * one thread lane per queue (tid = QueueId + 1), named by "thread_name" metadata events and
//     kept in queue order by "thread_sort_index";
//   * one complete event ("ph": "X") per task that ran, on its queue's lane: ts = start and
//     dur = end - start in microseconds (doubles), name = task name, args = {kind, bytes, op,
//     start_us, active_us} (start_us to active_us is the latency phase);
//   * one counter track ("ph": "C") per resource with Trace::usage samples, named by the
//     resource, series "rate": the rate of consumption (bytes/s for a link direction, busy
//     fraction for a device), so contention is visible;
//   * one counter track per pool with Trace::memory samples, named by the pool, series "bytes".
// One event per line, in that order; the same inputs always give the same bytes.
#pragma once

#include <ostream>
#include <string>

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace {

void write_chrome_trace(std::ostream& out, const engine::TaskGraph& g, const engine::Trace& t);

// Writes the trace to PATH.tmp-<pid> and renames it to PATH, so that no reader ever sees half a
// file. Throws InputError naming PATH when it cannot be written (e.g. a missing directory).
void write_chrome_trace_file(const std::string& path, const engine::TaskGraph& g, const engine::Trace& t);

}  // namespace placesim::trace
