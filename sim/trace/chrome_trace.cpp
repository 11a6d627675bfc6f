#include "sim/trace/chrome_trace.hpp"

#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/trace/trace_file.hpp"

namespace placesim::trace {

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

class ChromeEvents final : public TraceEvents {
 public:
  explicit ChromeEvents(std::ostream& out) : w_(out) {}
  std::size_t counter_track(std::string_view name, std::string_view series) override {
    tracks_.push_back(EventWriter::counter_text(name, series));
    return tracks_.size() - 1;
  }
  void counter(std::size_t track, TimePs t, double value) override {
    w_.counter(tracks_[track].first, t, tracks_[track].second, value);
  }
  void process() override { metadata(w_, "process_name", 0, "name", "placesim"); }
  void lane(engine::QueueId q, std::string_view name) override {
    const int tid = static_cast<int>(q) + 1;
    metadata(w_, "thread_name", tid, "name", name);
    w_.begin().str("name", "thread_sort_index").str("ph", "M").integer("pid", kPid).integer("tid", tid);
    w_.open("args").integer("sort_index", static_cast<int>(q)).close().end();
  }
  void task(const TaskEvent& e) override {
    const engine::TaskRecord& r = e.record;
    w_.begin().str("name", e.name).str("cat", engine::to_string(e.kind));
    w_.str("ph", "X").integer("pid", kPid).integer("tid", e.queue + 1).number("ts", us(r.start));
    w_.number("dur", us(r.end - r.start)).open("args").str("kind", engine::to_string(e.kind));
    w_.number("bytes", e.bytes).integer("op", e.op).number("start_us", us(r.start));
    w_.number("active_us", us(r.active)).close().end();
  }
  void finish() override { w_.finish(); }

 private:
  EventWriter w_;
  std::vector<std::pair<std::string, std::string>> tracks_;  // per track: counter_text
};

}  // namespace

std::unique_ptr<TraceEvents> chrome_trace_events(std::ostream& out) { return std::make_unique<ChromeEvents>(out); }

void write_chrome_trace(std::ostream& out, const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& filter) {
  ChromeEvents events(out);
  write_trace(events, g, t, filter);
}

}  // namespace placesim::trace
