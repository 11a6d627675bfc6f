#include "sim/trace/chrome_trace.hpp"

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace placesim::trace {

using engine::TaskGraph;
using engine::Trace;
using Json = nlohmann::ordered_json;

namespace {

constexpr int kPid = 1;

// Picoseconds -> microseconds, the trace format's unit.
double us(TimePs t) { return static_cast<double>(t) / 1e6; }

// Writes events as the elements of "traceEvents", one per line.
class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) { out_ << "{\"traceEvents\":[\n"; }
  void add(const Json& event) {
    if (!first_) out_ << ",\n";
    first_ = false;
    out_ << event.dump(-1, ' ', false, Json::error_handler_t::replace);  // names need not be UTF-8
  }
  void finish() { out_ << "\n],\"displayTimeUnit\":\"ns\"}\n"; }

 private:
  std::ostream& out_;
  bool first_ = true;
};

Json metadata(const char* name, int tid, Json args) {
  return {{"name", name}, {"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"args", std::move(args)}};
}

void add_lanes(EventWriter& w, const TaskGraph& g) {
  w.add(metadata("process_name", 0, {{"name", "placesim"}}));
  for (std::size_t q = 0; q < g.queues.size(); ++q) {
    const int tid = static_cast<int>(q) + 1;
    w.add(metadata("thread_name", tid, {{"name", g.queues[q]}}));
    w.add(metadata("thread_sort_index", tid, {{"sort_index", static_cast<int>(q)}}));
  }
}

void add_tasks(EventWriter& w, const TaskGraph& g, const Trace& t) {
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const engine::Task& task = g.tasks[i];
    const engine::TaskRecord& r = t.tasks[i];
    if (r.start < 0 || r.end < r.start) continue;  // never ran
    Json args = {{"kind", engine::to_string(task.kind)},
                 {"bytes", task.bytes},
                 {"op", task.op},
                 {"start_us", us(r.start)},
                 {"active_us", us(r.active)}};
    w.add({{"name", std::string(g.name(static_cast<engine::TaskId>(i)))},
           {"cat", engine::to_string(task.kind)},
           {"ph", "X"},
           {"pid", kPid},
           {"tid", task.queue + 1},
           {"ts", us(r.start)},
           {"dur", us(r.end - r.start)},
           {"args", std::move(args)}});
  }
}

void add_counter(EventWriter& w, const std::string& name, const char* series,
                 const std::vector<engine::Sample>& samples) {
  for (const engine::Sample& s : samples) {
    w.add({{"name", name}, {"ph", "C"}, {"pid", kPid}, {"ts", us(s.t)}, {"args", {{series, s.value}}}});
  }
}

}  // namespace

void write_chrome_trace(std::ostream& out, const TaskGraph& g, const Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  PLACESIM_ASSERT(t.usage.size() <= g.resources.size(), "more usage series than resources");
  PLACESIM_ASSERT(t.memory.size() <= g.pools.size(), "more memory series than pools");
  EventWriter w(out);
  add_lanes(w, g);
  add_tasks(w, g, t);
  for (std::size_t r = 0; r < t.usage.size(); ++r) {
    add_counter(w, g.resources[r].name, "rate", t.usage[r]);
  }
  for (std::size_t p = 0; p < t.memory.size(); ++p) {
    add_counter(w, g.pools[p].name, "bytes", t.memory[p]);
  }
  w.finish();
}

void write_chrome_trace_file(const std::string& path, const TaskGraph& g, const Trace& t) {
  write_file_atomic(path, [&](std::ostream& out) { write_chrome_trace(out, g, t); });
}

}  // namespace placesim::trace
