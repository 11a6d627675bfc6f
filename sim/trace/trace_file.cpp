#include "sim/trace/trace_file.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/trace/chrome_trace.hpp"
#include "sim/trace/perfetto_trace.hpp"

namespace placesim::trace {

using engine::TaskGraph;
using engine::Trace;

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// One counter track's samples through the filter's window, one at a time (in time order):
// samples before the window leave only the value in force, written at the window's start when
// the first sample in it comes later (or the track ends); samples after it are dropped.
class WindowedTrack {
 public:
  explicit WindowedTrack(std::size_t track) : track_(track) {}
  void sample(TraceEvents& ev, const engine::Sample& s, const TraceFilter& f) {
    if (s.t < f.from) {
      held_ = true;
      value_ = s.value;
      return;
    }
    if (s.t > f.to) return;
    if (held_ && s.t > f.from) ev.counter(track_, f.from, value_);
    held_ = false;
    ev.counter(track_, s.t, s.value);
  }
  void end(TraceEvents& ev, const TraceFilter& f) {
    if (held_) ev.counter(track_, f.from, value_);
    held_ = false;
  }

 private:
  std::size_t track_;
  bool held_ = false;
  double value_ = 0;
};

void add_counter(TraceEvents& ev, const std::string& name, const char* series, const std::vector<engine::Sample>& samples,
                 const TraceFilter& f) {
  if (samples.empty() || !f.keeps(name)) return;
  WindowedTrack track(ev.counter_track(name, series));
  for (const engine::Sample& s : samples) track.sample(ev, s, f);
  track.end(ev, f);
}

// The process, the kept lanes and the tasks that ran on them in the window.
void add_lanes_tasks(TraceEvents& ev, const TaskGraph& g, const Trace& t, const TraceFilter& f) {
  std::vector<char> keep(g.queues.size());
  ev.process();
  for (std::size_t q = 0; q < g.queues.size(); ++q) {
    keep[q] = f.keeps(g.queues[q]);
    if (keep[q]) ev.lane(static_cast<engine::QueueId>(q), g.queues[q]);
  }
  engine::NameReader names(g);
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const engine::Task& task = g.tasks[i];
    const engine::TaskRecord& r = t.tasks[i];
    const std::string_view name = names.next();
    if (r.start < 0 || r.end < r.start) continue;  // never ran
    if (!keep[task.queue] || r.end < f.from || r.start > f.to) continue;
    ev.task(TaskEvent{task.queue, name, task.kind, task.bytes, g.op(static_cast<engine::TaskId>(i)), r});
  }
}

void add_memory(TraceEvents& ev, const TaskGraph& g, const Trace& t, const TraceFilter& f) {
  for (std::size_t p = 0; p < t.memory.size(); ++p) add_counter(ev, g.pools[p].name, "bytes", t.memory[p], f);
}

void check_sizes(const TaskGraph& g, const Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  PLACESIM_ASSERT(t.usage.size() <= g.resources.size(), "more usage series than resources");
  PLACESIM_ASSERT(t.memory.size() <= g.pools.size(), "more memory series than pools");
}

}  // namespace

TraceFormat trace_format_of(std::string_view path) {
  return ends_with(path, ".pftrace") || ends_with(path, ".perfetto-trace") ? TraceFormat::Perfetto : TraceFormat::Json;
}

const char* extension_of(TraceFormat format) { return format == TraceFormat::Perfetto ? ".pftrace" : ".json"; }

std::unique_ptr<TraceEvents> make_trace_events(TraceFormat format, std::ostream& out) {
  return format == TraceFormat::Perfetto ? perfetto_trace_events(out) : chrome_trace_events(out);
}

void write_trace(TraceEvents& ev, const TaskGraph& g, const Trace& t, const TraceFilter& filter) {
  check_sizes(g, t);
  add_lanes_tasks(ev, g, t, filter);
  for (std::size_t r = 0; r < t.usage.size(); ++r) add_counter(ev, g.resources[r].name, "rate", t.usage[r], filter);
  add_memory(ev, g, t, filter);
  ev.finish();
}

void write_trace_file(const std::string& path, const TaskGraph& g, const Trace& t, const TraceFilter& filter) {
  write_file_atomic(path, [&](std::ostream& out) { write_trace(*make_trace_events(trace_format_of(path), out), g, t, filter); });
}

struct TraceFile::Impl {
  AtomicFile file;
  TraceFilter filter;
  std::unique_ptr<TraceEvents> events;
  std::vector<std::optional<WindowedTrack>> tracks;  // per resource, where wanted
  Impl(const std::string& path, TraceFilter f)
      : file(path), filter(std::move(f)), events(make_trace_events(trace_format_of(path), file.out())) {}
};

TraceFile::TraceFile(const std::string& path, TraceFilter filter) : impl_(std::make_unique<Impl>(path, std::move(filter))) {}

TraceFile::~TraceFile() = default;

void TraceFile::begin(const TaskGraph& g) {
  Impl& f = *impl_;
  f.tracks.assign(g.resources.size(), std::nullopt);
  for (std::size_t r = 0; r < g.resources.size(); ++r)
    if (f.filter.keeps(g.resources[r].name)) f.tracks[r].emplace(f.events->counter_track(g.resources[r].name, "rate"));
}

bool TraceFile::wants(engine::ResourceId r) const { return impl_->tracks[r].has_value(); }

void TraceFile::sample(engine::ResourceId r, const engine::Sample& s) {
  Impl& f = *impl_;
  f.tracks[r]->sample(*f.events, s, f.filter);
}

void TraceFile::finish(const TaskGraph& g, const Trace& t) {
  check_sizes(g, t);
  Impl& f = *impl_;
  PLACESIM_ASSERT(f.tracks.size() == g.resources.size(), "a streamed trace finished with another graph than its run's");
  for (std::optional<WindowedTrack>& track : f.tracks)
    if (track) track->end(*f.events, f.filter);
  add_lanes_tasks(*f.events, g, t, f.filter);
  add_memory(*f.events, g, t, f.filter);
  f.events->finish();
  f.file.commit();
}

}  // namespace placesim::trace
