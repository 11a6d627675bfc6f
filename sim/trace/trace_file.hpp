// A run's trace, in the format its file name asks for, filtered (trace_filter.hpp): written
// after the run from its Trace, or streamed while the run goes (TraceFile).
//
// Formats (docs/results.md, "Traces"): Chrome's trace-event JSON (chrome_trace.hpp), which
// `placesim plot` and the trace diff read back; and Perfetto's own protobuf (perfetto_trace.hpp)
// for files named *.pftrace, a quarter of the bytes and of the time to write, for runs with
// millions of counter samples. Both open in ui.perfetto.dev.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"
#include "sim/trace/trace_events.hpp"
#include "sim/trace/trace_filter.hpp"

namespace placesim::trace {

enum class TraceFormat { Json, Perfetto };

// Perfetto for a name ending in .pftrace or .perfetto-trace, JSON for any other.
TraceFormat trace_format_of(std::string_view path);
// The file name extension a format's traces get where placesim names them (run --trace DIR).
const char* extension_of(TraceFormat format);
std::unique_ptr<TraceEvents> make_trace_events(TraceFormat format, std::ostream& out);

// The whole run through the filter: the lanes and their tasks, a counter track per resource with
// Trace::usage samples (named by the resource, series "rate": bytes/s for a link direction, busy
// share for a device) and per pool with Trace::memory samples (series "bytes"); then finish().
void write_trace(TraceEvents& events, const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& filter = {});

// Writes the trace to PATH.tmp-<pid> and renames it to PATH, so that no reader ever sees half a
// file. Throws InputError naming PATH when it cannot be written (e.g. a missing directory).
void write_trace_file(const std::string& path, const engine::TaskGraph& g, const engine::Trace& t,
                      const TraceFilter& filter = {});

// A trace written while the run goes: hand it to the engine as SimOptions::usage_sink (with
// record_usage), and it writes each usage sample as it comes, so memory holds none of them;
// finish() adds the lanes, tasks and memory tracks and puts the file in place (as
// write_trace_file). A file never finished is removed.
class TraceFile final : public engine::UsageSink {
 public:
  TraceFile(const std::string& path, TraceFilter filter = {});
  ~TraceFile() override;
  void begin(const engine::TaskGraph& g) override;
  bool wants(engine::ResourceId r) const override;
  void sample(engine::ResourceId r, const engine::Sample& s) override;
  void finish(const engine::TaskGraph& g, const engine::Trace& t);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace placesim::trace
