#include "sim/trace/perfetto_trace.hpp"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace placesim::trace {

namespace {

// The field numbers of Perfetto's messages that placesim writes (header comment).
namespace field {
constexpr std::uint32_t kPacket = 1;  // Trace
// TracePacket
constexpr std::uint32_t kTimestamp = 8, kSequenceId = 10, kTrackEvent = 11, kTrackDescriptor = 60;
// TrackDescriptor
constexpr std::uint32_t kUuid = 1, kName = 2, kProcess = 3, kThread = 4, kParentUuid = 5, kCounter = 8;
// ProcessDescriptor and ThreadDescriptor
constexpr std::uint32_t kPid = 1, kTid = 2, kThreadName = 5, kProcessName = 6;
constexpr std::uint32_t kUnit = 3;  // CounterDescriptor
// TrackEvent
constexpr std::uint32_t kDebugAnnotation = 4, kType = 9, kTrackUuid = 11, kCategory = 22, kEventName = 23,
                        kDoubleCounterValue = 44;
// DebugAnnotation
constexpr std::uint32_t kIntValue = 4, kDoubleValue = 5, kStringValue = 6, kAnnotationName = 10;
}  // namespace field

constexpr std::uint64_t kSliceBegin = 1, kSliceEnd = 2, kCounterEvent = 4;  // TrackEvent.Type
constexpr std::uint64_t kUnitSizeBytes = 3;                                 // CounterDescriptor.Unit
constexpr std::uint64_t kSequence = 1, kProcessId = 1;
constexpr std::uint64_t kProcessUuid = 1, kFirstCounterUuid = 2, kFirstLaneUuid = std::uint64_t{1} << 32;
constexpr std::size_t kBufferBytes = 1 << 20;
// Room a counter sample's event and whole packet may take (counter_packet): an event is at most
// 2 (type) + 1 + 10 (uuid) + 2 + 8 (value) = 23 bytes, its framed packet 2 (key, length) + 1 + 10
// (timestamp) + 2 (sequence) + 2 (key, length) + 23 = 40; the event is copied as 24 bytes.
constexpr std::size_t kEventRoom = 24, kPacketRoom = 48;

static_assert(std::endian::native == std::endian::little, "doubles are copied as the wire format's little-endian fixed64");

// A varint (and a field's key, which is one) written at out + at; returns where it ends.
std::size_t put_varint(char* out, std::size_t at, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out[at++] = static_cast<char>(v | 0x80);
  out[at++] = static_cast<char>(v);
  return at;
}
std::size_t put_key(char* out, std::size_t at, std::uint32_t f, std::uint32_t wire_type) {
  return put_varint(out, at, (std::uint64_t{f} << 3) | wire_type);
}

// A protobuf message in the making: its fields appended in the wire format.
class Message {
 public:
  Message& varint(std::uint32_t f, std::uint64_t v) {
    key(f, 0);
    append_varint(v);
    return *this;
  }
  Message& fixed(std::uint32_t f, double v) {
    key(f, 1);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);  // little-endian (static_assert above)
    return *this;
  }
  Message& bytes(std::uint32_t f, std::string_view s) {
    key(f, 2);
    append_varint(s.size());
    bytes_.append(s);
    return *this;
  }
  Message& message(std::uint32_t f, const Message& m) { return bytes(f, m.bytes_); }
  void clear() { bytes_.clear(); }
  std::size_t size() const { return bytes_.size(); }
  const std::string& data() const { return bytes_; }

 private:
  void key(std::uint32_t f, std::uint32_t wire_type) {
    char text[10];
    bytes_.append(text, put_key(text, 0, f, wire_type));
  }
  void append_varint(std::uint64_t v) {
    char text[10];
    bytes_.append(text, put_varint(text, 0, v));
  }
  std::string bytes_;
};

// Picoseconds -> nanoseconds, rounded to the nearest.
std::uint64_t ns(TimePs t) { return static_cast<std::uint64_t>((t + 500) / 1000); }

class PerfettoEvents final : public TraceEvents {
 public:
  explicit PerfettoEvents(std::ostream& out) : out_(out) {
    Message process;
    process.varint(field::kPid, kProcessId).bytes(field::kProcessName, "placesim");
    Message desc;
    desc.varint(field::kUuid, kProcessUuid).message(field::kProcess, process);
    descriptor(desc);
  }

  std::size_t counter_track(std::string_view name, std::string_view series) override {
    Track k;
    k.name.append(name).append(" ").append(series);
    k.bytes = series == "bytes";
    tracks_.push_back(std::move(k));
    return tracks_.size() - 1;
  }
  // Held until a later nanosecond's sample or the end: the last of a nanosecond's samples wins.
  void counter(std::size_t track, TimePs t, double value) override {
    Track& k = tracks_[track];
    const std::uint64_t at = ns(t);
    if (k.held && k.held_ns != at) write_counter(track);
    k.held = true;
    k.held_ns = at;
    k.held_value = value;
  }
  void process() override {}  // written first: the counter tracks' parent
  void lane(engine::QueueId q, std::string_view name) override {
    Message thread;
    thread.varint(field::kPid, kProcessId).varint(field::kTid, static_cast<std::uint64_t>(q) + 1).bytes(field::kThreadName, name);
    Message desc;
    desc.varint(field::kUuid, lane_uuid(q)).varint(field::kParentUuid, kProcessUuid).message(field::kThread, thread);
    descriptor(desc);
  }
  void task(const TaskEvent& e) override {
    const std::string_view kind = engine::to_string(e.kind);
    event_.clear();
    event_.varint(field::kType, kSliceBegin).varint(field::kTrackUuid, lane_uuid(e.queue));
    event_.bytes(field::kCategory, kind).bytes(field::kEventName, e.name);
    annotation("kind").bytes(field::kStringValue, kind);
    event_.message(field::kDebugAnnotation, annotation_);
    annotation("bytes").fixed(field::kDoubleValue, e.bytes);
    event_.message(field::kDebugAnnotation, annotation_);
    annotation("op").varint(field::kIntValue, static_cast<std::uint64_t>(e.op));
    event_.message(field::kDebugAnnotation, annotation_);
    annotation("start_us").fixed(field::kDoubleValue, static_cast<double>(e.record.start) / 1e6);
    event_.message(field::kDebugAnnotation, annotation_);
    annotation("active_us").fixed(field::kDoubleValue, static_cast<double>(e.record.active) / 1e6);
    event_.message(field::kDebugAnnotation, annotation_);
    packet(ns(e.record.start));
    event_.clear();
    event_.varint(field::kType, kSliceEnd).varint(field::kTrackUuid, lane_uuid(e.queue));
    packet(ns(e.record.end));
  }
  void finish() override {
    for (std::size_t k = 0; k < tracks_.size(); ++k)
      if (tracks_[k].held) write_counter(k);
    flush();
  }

 private:
  struct Track {
    std::string name;
    bool bytes = false;     // counts bytes (a memory pool)
    bool declared = false;  // its descriptor written
    bool held = false;      // a sample not yet written
    std::uint64_t held_ns = 0;
    double held_value = 0;
  };

  static std::uint64_t lane_uuid(engine::QueueId q) { return kFirstLaneUuid + static_cast<std::uint64_t>(q); }

  void write_counter(std::size_t k) {
    Track& track = tracks_[k];
    if (!track.declared) {
      Message counter;
      if (track.bytes) counter.varint(field::kUnit, kUnitSizeBytes);
      Message desc;
      desc.varint(field::kUuid, kFirstCounterUuid + k).varint(field::kParentUuid, kProcessUuid).bytes(field::kName, track.name);
      desc.message(field::kCounter, counter);
      descriptor(desc);
      track.declared = true;
    }
    counter_packet(kFirstCounterUuid + k, track.held_ns, track.held_value);
    track.held = false;
  }
  // The packet of one counter sample, spelled out byte by byte into the output buffer (the same
  // bytes as packet() of a TYPE_COUNTER event would give): tens of millions of them are most of
  // a large trace. Each length fits one byte (kPacketRoom).
  void counter_packet(std::uint64_t uuid, std::uint64_t at, double value) {
    char event[kEventRoom];
    std::size_t e = put_key(event, 0, field::kType, 0);
    e = put_varint(event, e, kCounterEvent);
    e = put_key(event, e, field::kTrackUuid, 0);
    e = put_varint(event, e, uuid);
    e = put_key(event, e, field::kDoubleCounterValue, 1);
    std::memcpy(event + e, &value, sizeof value);  // little-endian (static_assert above)
    e += sizeof value;
    if (used_ + kPacketRoom > buf_.size()) flush();
    char* out = buf_.data() + used_;
    std::size_t p = put_key(out, 0, field::kPacket, 2) + 1;  // the packet's length goes at out[p - 1]
    const std::size_t from = p;
    p = put_key(out, p, field::kTimestamp, 0);
    p = put_varint(out, p, at);
    p = put_key(out, p, field::kSequenceId, 0);
    p = put_varint(out, p, kSequence);
    p = put_key(out, p, field::kTrackEvent, 2);
    p = put_varint(out, p, e);
    std::memcpy(out + p, event, kEventRoom);  // a fixed size: no call; what is past e is overwritten later
    p += e;
    out[from - 1] = static_cast<char>(p - from);
    used_ += p;
  }
  // annotation_ holds a debug annotation named `name`; the caller adds its value.
  Message& annotation(std::string_view name) {
    annotation_.clear();
    return annotation_.bytes(field::kAnnotationName, name);
  }
  // A packet at `at` of event_.
  void packet(std::uint64_t at) {
    packet_.clear();
    packet_.varint(field::kTimestamp, at).varint(field::kSequenceId, kSequence).message(field::kTrackEvent, event_);
    append();
  }
  void descriptor(const Message& desc) {
    packet_.clear();
    packet_.varint(field::kSequenceId, kSequence).message(field::kTrackDescriptor, desc);
    append();
  }
  // packet_ as the Trace's next packet.
  void append() {
    framed_.clear();
    framed_.message(field::kPacket, packet_);
    const std::string& bytes = framed_.data();
    if (used_ + bytes.size() > buf_.size()) flush();
    if (bytes.size() > buf_.size()) {
      out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      return;
    }
    std::memcpy(buf_.data() + used_, bytes.data(), bytes.size());
    used_ += bytes.size();
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(used_));
    used_ = 0;
  }

  std::ostream& out_;
  std::vector<Track> tracks_;
  Message event_, annotation_, packet_, framed_;
  std::vector<char> buf_ = std::vector<char>(kBufferBytes);  // what goes to out_ next: used_ bytes
  std::size_t used_ = 0;
};

}  // namespace

std::unique_ptr<TraceEvents> perfetto_trace_events(std::ostream& out) { return std::make_unique<PerfettoEvents>(out); }

}  // namespace placesim::trace
