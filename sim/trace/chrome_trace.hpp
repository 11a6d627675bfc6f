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
// One event per line, in that order (ChromeTraceFile streams the usage tracks first); the same
// inputs always give the same bytes.
//
// A TraceFilter keeps part of a run: the lanes and counter tracks whose names match one of its
// globs (a queue's name for a lane, a resource's or pool's for a track), and what overlaps its
// time window: a task that ran at some instant in it, and each track's samples in it, with the
// value in force at the window's start as a sample there.
#pragma once

#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace {

struct TraceFilter {
  std::vector<std::string> names;  // shell globs (fnmatch); none: every lane and track
  TimePs from = 0;
  TimePs to = std::numeric_limits<TimePs>::max();
  bool keeps(std::string_view name) const;
};

// --trace-filter's terms, each a comma-separated list of name globs and `time=FROM..TO`
// (durations such as 100ms; either end may be left out; one window in all). InputError naming
// `option` for a bad term.
TraceFilter parse_trace_filter(const std::vector<std::string>& terms, const std::string& option = "--trace-filter");

void write_chrome_trace(std::ostream& out, const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& filter = {});

// Writes the trace to PATH.tmp-<pid> and renames it to PATH, so that no reader ever sees half a
// file. Throws InputError naming PATH when it cannot be written (e.g. a missing directory).
void write_chrome_trace_file(const std::string& path, const engine::TaskGraph& g, const engine::Trace& t,
                             const TraceFilter& filter = {});

// A trace written while the run goes: hand it to the engine as SimOptions::usage_sink (with
// record_usage), and it writes each usage sample as it comes, so memory holds none of them;
// finish() adds the lanes, tasks and memory tracks and puts the file in place (as
// write_chrome_trace_file). A file never finished is removed.
class ChromeTraceFile final : public engine::UsageSink {
 public:
  ChromeTraceFile(const std::string& path, TraceFilter filter = {});
  ~ChromeTraceFile() override;
  void begin(const engine::TaskGraph& g) override;
  bool wants(engine::ResourceId r) const override;
  void sample(engine::ResourceId r, const engine::Sample& s) override;
  void finish(const engine::TaskGraph& g, const engine::Trace& t);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace placesim::trace
