#include "sim/trace/chrome_trace.hpp"

#include <fnmatch.h>

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

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
    double_text(value);
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
  // A counter event whose text up to the timestamp's value (`{"name":...,"ts":`) and between
  // it and the sample's value (`,"args":{"rate":`) were written once for its track: a run of
  // millions of samples escapes each track's name once, not once a sample.
  void counter(std::string_view head, TimePs t, std::string_view middle, double value) {
    if (!first_) buf_.append(std::string_view(",\n"));
    first_ = false;
    buf_.append(head);
    double_text(us(t));
    buf_.append(middle);
    double_text(value);
    buf_.append(std::string_view("}}"));
    if (buf_.size() >= kFlushBytes) flush();
  }
  // The head and middle of `counter` for a track.
  static std::pair<std::string, std::string> counter_text(std::string_view name, std::string_view series) {
    fmt::memory_buffer head, middle;
    EventWriter::quote_into(head, name);
    EventWriter::quote_into(middle, series);
    return {fmt::format("{{\"name\":{},\"ph\":\"C\",\"pid\":{},\"ts\":", std::string_view(head.data(), head.size()), kPid),
            fmt::format(",\"args\":{{{}:", std::string_view(middle.data(), middle.size()))};
  }

 private:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  void key(std::string_view k) {
    if (!first_member_) buf_.push_back(',');
    first_member_ = false;
    quote_into(buf_, k);
    buf_.push_back(':');
  }
  void quoted(std::string_view s) { quote_into(buf_, s); }
  void double_text(double value) {
    if (!std::isfinite(value)) {
      buf_.append(std::string_view("null"));
      return;
    }
    const std::size_t from = buf_.size();
    fmt::format_to(std::back_inserter(buf_), "{}", value);
    if (std::string_view(buf_.data() + from, buf_.size() - from).find_first_of(".e") == std::string_view::npos)
      buf_.append(std::string_view(".0"));
  }
  // A JSON string. ASCII is escaped here; text with other bytes goes through the JSON library,
  // which replaces what is not UTF-8 (names need not be).
  static void quote_into(fmt::memory_buffer& buf_, std::string_view s) {
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

// Per queue, whether its lane is kept.
std::vector<char> kept_lanes(const TaskGraph& g, const TraceFilter& f) {
  std::vector<char> keep(g.queues.size());
  for (std::size_t q = 0; q < g.queues.size(); ++q) keep[q] = f.keeps(g.queues[q]);
  return keep;
}

void add_lanes(EventWriter& w, const TaskGraph& g, const std::vector<char>& keep) {
  metadata(w, "process_name", 0, "name", "placesim");
  for (std::size_t q = 0; q < g.queues.size(); ++q) {
    if (!keep[q]) continue;
    const int tid = static_cast<int>(q) + 1;
    metadata(w, "thread_name", tid, "name", g.queues[q]);
    w.begin().str("name", "thread_sort_index").str("ph", "M").integer("pid", kPid).integer("tid", tid);
    w.open("args").integer("sort_index", static_cast<int>(q)).close().end();
  }
}

void add_tasks(EventWriter& w, const TaskGraph& g, const Trace& t, const std::vector<char>& keep, const TraceFilter& f) {
  engine::NameReader names(g);
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const engine::Task& task = g.tasks[i];
    const engine::TaskRecord& r = t.tasks[i];
    const std::string_view name = names.next();
    if (r.start < 0 || r.end < r.start) continue;  // never ran
    if (!keep[task.queue] || r.end < f.from || r.start > f.to) continue;
    w.begin().str("name", name).str("cat", engine::to_string(task.kind));
    w.str("ph", "X").integer("pid", kPid).integer("tid", task.queue + 1).number("ts", us(r.start));
    w.number("dur", us(r.end - r.start)).open("args").str("kind", engine::to_string(task.kind));
    w.number("bytes", task.bytes).integer("op", g.op(static_cast<engine::TaskId>(i))).number("start_us", us(r.start));
    w.number("active_us", us(r.active)).close().end();
  }
}

// One counter track's samples through the filter's window, one at a time (in time order):
// samples before the window leave only the value in force, written at the window's start when
// the first sample in it comes later (or the track ends); samples after it are dropped.
class WindowedTrack {
 public:
  WindowedTrack(std::string_view name, std::string_view series) { std::tie(head_, middle_) = EventWriter::counter_text(name, series); }
  void sample(EventWriter& w, const engine::Sample& s, const TraceFilter& f) {
    if (s.t < f.from) {
      held_ = true;
      value_ = s.value;
      return;
    }
    if (s.t > f.to) return;
    if (held_ && s.t > f.from) w.counter(head_, f.from, middle_, value_);
    held_ = false;
    w.counter(head_, s.t, middle_, s.value);
  }
  void end(EventWriter& w, const TraceFilter& f) {
    if (held_) w.counter(head_, f.from, middle_, value_);
    held_ = false;
  }

 private:
  std::string head_, middle_;
  bool held_ = false;
  double value_ = 0;
};

void add_counter(EventWriter& w, const std::string& name, const char* series, const std::vector<engine::Sample>& samples,
                 const TraceFilter& f) {
  if (samples.empty() || !f.keeps(name)) return;
  WindowedTrack track(name, series);
  for (const engine::Sample& s : samples) track.sample(w, s, f);
  track.end(w, f);
}

// Everything but the usage tracks, which write_chrome_trace adds from the trace and
// ChromeTraceFile has streamed.
void add_lanes_tasks(EventWriter& w, const TaskGraph& g, const Trace& t, const TraceFilter& f) {
  const std::vector<char> keep = kept_lanes(g, f);
  add_lanes(w, g, keep);
  add_tasks(w, g, t, keep, f);
}

void add_memory(EventWriter& w, const TaskGraph& g, const Trace& t, const TraceFilter& f) {
  for (std::size_t p = 0; p < t.memory.size(); ++p) add_counter(w, g.pools[p].name, "bytes", t.memory[p], f);
}

void check_sizes(const TaskGraph& g, const Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  PLACESIM_ASSERT(t.usage.size() <= g.resources.size(), "more usage series than resources");
  PLACESIM_ASSERT(t.memory.size() <= g.pools.size(), "more memory series than pools");
}

}  // namespace

bool TraceFilter::keeps(std::string_view name) const {
  if (names.empty()) return true;
  const std::string text(name);
  for (const std::string& glob : names)
    if (fnmatch(glob.c_str(), text.c_str(), 0) == 0) return true;
  return false;
}

TraceFilter parse_trace_filter(const std::vector<std::string>& terms, const std::string& option) {
  TraceFilter f;
  bool window = false;
  auto bad = [&](const std::string& what) { throw InputError(SourceLoc{option}, what); };
  for (const std::string& list : terms) {
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      const std::string term = list.substr(at, comma - at);
      at = comma + 1;
      if (term.empty()) bad("an empty term in '" + list + "': expected name globs and time=FROM..TO, separated by commas");
      if (term.rfind("time=", 0) != 0) {
        f.names.push_back(term);
        continue;
      }
      const std::string span = term.substr(5);
      const std::size_t dots = span.find("..");
      if (dots == std::string::npos) bad("expected time=FROM..TO such as time=100ms..200ms (either end may be left out), got '" + term + "'");
      if (window) bad("more than one time window ('" + term + "'): give one");
      window = true;
      auto end = [&](const std::string& text, TimePs none) {
        if (text.empty()) return none;
        try {
          const double seconds = units::parse_duration(text);
          if (!(seconds >= 0)) bad("a time window's ends are durations >= 0, got '" + text + "'");
          return ceil_ps(seconds);
        } catch (const InputError& e) {
          bad("in '" + term + "': " + e.detail());
        }
        return none;
      };
      f.from = end(span.substr(0, dots), 0);
      f.to = end(span.substr(dots + 2), std::numeric_limits<TimePs>::max());
      if (f.to < f.from) bad("time window '" + term + "' ends before it starts");
    }
  }
  return f;
}

void write_chrome_trace(std::ostream& out, const TaskGraph& g, const Trace& t, const TraceFilter& filter) {
  check_sizes(g, t);
  EventWriter w(out);
  add_lanes_tasks(w, g, t, filter);
  for (std::size_t r = 0; r < t.usage.size(); ++r) add_counter(w, g.resources[r].name, "rate", t.usage[r], filter);
  add_memory(w, g, t, filter);
  w.finish();
}

void write_chrome_trace_file(const std::string& path, const TaskGraph& g, const Trace& t, const TraceFilter& filter) {
  write_file_atomic(path, [&](std::ostream& out) { write_chrome_trace(out, g, t, filter); });
}

struct ChromeTraceFile::Impl {
  AtomicFile file;
  TraceFilter filter;
  EventWriter writer;
  std::vector<char> wanted;                           // per resource
  std::vector<std::optional<WindowedTrack>> tracks;   // per resource, where wanted
  Impl(const std::string& path, TraceFilter f) : file(path), filter(std::move(f)), writer(file.out()) {}
};

ChromeTraceFile::ChromeTraceFile(const std::string& path, TraceFilter filter)
    : impl_(std::make_unique<Impl>(path, std::move(filter))) {}

ChromeTraceFile::~ChromeTraceFile() = default;

void ChromeTraceFile::begin(const TaskGraph& g) {
  Impl& f = *impl_;
  f.wanted.resize(g.resources.size());
  f.tracks.resize(g.resources.size());
  for (std::size_t r = 0; r < g.resources.size(); ++r) {
    f.wanted[r] = f.filter.keeps(g.resources[r].name);
    if (f.wanted[r]) f.tracks[r].emplace(g.resources[r].name, "rate");
  }
}

bool ChromeTraceFile::wants(engine::ResourceId r) const { return impl_->wanted[r] != 0; }

void ChromeTraceFile::sample(engine::ResourceId r, const engine::Sample& s) {
  Impl& f = *impl_;
  f.tracks[r]->sample(f.writer, s, f.filter);
}

void ChromeTraceFile::finish(const TaskGraph& g, const Trace& t) {
  check_sizes(g, t);
  Impl& f = *impl_;
  PLACESIM_ASSERT(f.tracks.size() == g.resources.size(), "a streamed trace finished with another graph than its run's");
  for (std::optional<WindowedTrack>& track : f.tracks)
    if (track) track->end(f.writer, f.filter);
  add_lanes_tasks(f.writer, g, t, f.filter);
  add_memory(f.writer, g, t, f.filter);
  f.writer.finish();
  f.file.commit();
}

}  // namespace placesim::trace
