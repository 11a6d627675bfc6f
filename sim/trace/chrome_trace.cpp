#include "sim/trace/chrome_trace.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string_view>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace placesim::trace {

using engine::TaskGraph;
using engine::Trace;

namespace {

constexpr int kPid = 1;

// Picoseconds -> microseconds, the trace format's unit.
double us(TimePs t) { return static_cast<double>(t) / 1e6; }

// Writes events as the elements of "traceEvents", one per line, formatted straight into a
// buffer that goes to the stream a megabyte at a time: a run of millions of counter samples
// spends its time writing them, not building a JSON object per event.
class EventWriter {
 public:
  explicit EventWriter(std::ostream& out) : out_(out) { buf_.append(std::string_view("{\"traceEvents\":[\n")); }

  // The text of one event: "{" is opened here, the caller appends its members, end() closes it.
  EventWriter& begin() {
    if (!first_) buf_.append(std::string_view(",\n"));
    first_ = false;
    buf_.push_back('{');
    first_member_ = true;
    return *this;
  }
  EventWriter& end() {
    buf_.push_back('}');
    if (buf_.size() >= kFlushBytes) flush();
    return *this;
  }
  // `"key":` then the value; open() starts an object value that close() ends.
  EventWriter& str(std::string_view key, std::string_view value) {
    this->key(key);
    quoted(value);
    return *this;
  }
  EventWriter& integer(std::string_view key, long long value) {
    this->key(key);
    fmt::format_to(std::back_inserter(buf_), "{}", value);
    return *this;
  }
  // The shortest text that reads back as the same double; a whole number keeps a ".0" (as a
  // JSON library writes doubles), and what JSON cannot hold (inf, NaN) is null.
  EventWriter& number(std::string_view key, double value) {
    this->key(key);
    if (!std::isfinite(value)) {
      buf_.append(std::string_view("null"));
      return *this;
    }
    const std::size_t from = buf_.size();
    fmt::format_to(std::back_inserter(buf_), "{}", value);
    if (std::string_view(buf_.data() + from, buf_.size() - from).find_first_of(".e") == std::string_view::npos)
      buf_.append(std::string_view(".0"));
    return *this;
  }
  EventWriter& open(std::string_view key) {
    this->key(key);
    buf_.push_back('{');
    first_member_ = true;
    return *this;
  }
  EventWriter& close() {
    buf_.push_back('}');
    first_member_ = false;
    return *this;
  }
  void finish() {
    buf_.append(std::string_view("\n],\"displayTimeUnit\":\"ns\"}\n"));
    flush();
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  void key(std::string_view k) {
    if (!first_member_) buf_.push_back(',');
    first_member_ = false;
    quoted(k);
    buf_.push_back(':');
  }
  // A JSON string. ASCII is escaped here; text with other bytes goes through the JSON library,
  // which replaces what is not UTF-8 (names need not be).
  void quoted(std::string_view s) {
    for (unsigned char c : s)
      if (c >= 0x80) {
        const std::string text =
            nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        buf_.append(std::string_view(text));
        return;
      }
    buf_.push_back('"');
    for (unsigned char c : s) {
      switch (c) {
        case '"': buf_.append(std::string_view("\\\"")); break;
        case '\\': buf_.append(std::string_view("\\\\")); break;
        case '\n': buf_.append(std::string_view("\\n")); break;
        case '\r': buf_.append(std::string_view("\\r")); break;
        case '\t': buf_.append(std::string_view("\\t")); break;
        case '\b': buf_.append(std::string_view("\\b")); break;
        case '\f': buf_.append(std::string_view("\\f")); break;
        default:
          if (c < 0x20) fmt::format_to(std::back_inserter(buf_), "\\u{:04x}", c);
          else buf_.push_back(static_cast<char>(c));
      }
    }
    buf_.push_back('"');
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

  std::ostream& out_;
  fmt::memory_buffer buf_;
  bool first_ = true, first_member_ = true;
};

void metadata(EventWriter& w, const char* name, int tid, const char* key, std::string_view text) {
  w.begin().str("name", name).str("ph", "M").integer("pid", kPid).integer("tid", tid).open("args").str(key, text).close().end();
}

void add_lanes(EventWriter& w, const TaskGraph& g) {
  metadata(w, "process_name", 0, "name", "placesim");
  for (std::size_t q = 0; q < g.queues.size(); ++q) {
    const int tid = static_cast<int>(q) + 1;
    metadata(w, "thread_name", tid, "name", g.queues[q]);
    w.begin().str("name", "thread_sort_index").str("ph", "M").integer("pid", kPid).integer("tid", tid);
    w.open("args").integer("sort_index", static_cast<int>(q)).close().end();
  }
}

void add_tasks(EventWriter& w, const TaskGraph& g, const Trace& t) {
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const engine::Task& task = g.tasks[i];
    const engine::TaskRecord& r = t.tasks[i];
    if (r.start < 0 || r.end < r.start) continue;  // never ran
    w.begin().str("name", g.name(static_cast<engine::TaskId>(i))).str("cat", engine::to_string(task.kind));
    w.str("ph", "X").integer("pid", kPid).integer("tid", task.queue + 1).number("ts", us(r.start));
    w.number("dur", us(r.end - r.start)).open("args").str("kind", engine::to_string(task.kind));
    w.number("bytes", task.bytes).integer("op", task.op).number("start_us", us(r.start));
    w.number("active_us", us(r.active)).close().end();
  }
}

void add_counter(EventWriter& w, const std::string& name, const char* series,
                 const std::vector<engine::Sample>& samples) {
  for (const engine::Sample& s : samples) {
    w.begin().str("name", name).str("ph", "C").integer("pid", kPid).number("ts", us(s.t));
    w.open("args").number(series, s.value).close().end();
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
