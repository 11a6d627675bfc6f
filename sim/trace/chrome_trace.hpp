// Chrome trace-event JSON of one run of a TaskGraph, for Perfetto (ui.perfetto.dev) and
// chrome://tracing, and for `placesim plot` and the trace diff, which read it back.
//
// Format (the "JSON Object Format" of the Trace Event Format document):
//   * one process (pid 1, named "placesim");
//   * one thread lane per queue (tid = QueueId + 1), named by "thread_name" metadata events and
//     kept in queue order by "thread_sort_index";
//   * one complete event ("ph": "X") per task that ran, on its queue's lane: ts = start and
//     dur = end - start in microseconds (doubles), name = task name, args = {kind, bytes, op,
//     start_us, active_us} (start_us to active_us is the latency phase);
//   * one counter event ("ph": "C") per sample of each counter track (trace_file.hpp), named by
//     the track, its value the one arg, named by the series.
// One event per line, in the order trace_file.cpp hands them over; the same inputs always give
// the same bytes.
#pragma once

#include <memory>
#include <ostream>

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"
#include "sim/trace/trace_events.hpp"
#include "sim/trace/trace_filter.hpp"

namespace placesim::trace {

// Events written to `out` as JSON (trace_file.hpp picks the format from a file's name).
std::unique_ptr<TraceEvents> chrome_trace_events(std::ostream& out);

// The whole run as JSON on `out` (write_trace with chrome_trace_events).
void write_chrome_trace(std::ostream& out, const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& filter = {});

}  // namespace placesim::trace
