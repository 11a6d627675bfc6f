// Perfetto's protobuf trace of the hand-made run in sample_run.hpp, read back with a wire-format
// reader written here from the protobuf encoding rules and the field numbers of Perfetto's
// protos (trace_packet.proto, track_event.proto, track_descriptor.proto, counter_descriptor.proto,
// debug_annotation.proto): the tracks, slices and samples the JSON trace holds, at the same
// instants in nanoseconds.
#include "sim/trace/perfetto_trace.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "sim/engine/executor.hpp"
#include "sim/trace/trace_file.hpp"
#include "tests/sim/trace/sample_run.hpp"

namespace placesim::trace {
namespace {

using testdata::sample_graph;
using testdata::sample_trace;

// One field of a message: its number, wire type and value.
struct Field {
  std::uint32_t number = 0;
  int wire = 0;
  std::uint64_t varint = 0;  // wire 0
  double fixed = 0;          // wire 1
  std::string bytes;         // wire 2
};

std::uint64_t read_varint(const std::string& s, std::size_t& at) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    if (at >= s.size() || shift > 63) throw std::runtime_error("truncated varint");
    const auto b = static_cast<unsigned char>(s[at++]);
    v |= std::uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return v;
  }
}

// The fields of one message, in order; throws on anything malformed.
std::vector<Field> fields(const std::string& s) {
  std::vector<Field> out;
  for (std::size_t at = 0; at < s.size();) {
    const std::uint64_t key = read_varint(s, at);
    Field f;
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wire = static_cast<int>(key & 7);
    if (f.wire == 0) {
      f.varint = read_varint(s, at);
    } else if (f.wire == 1) {
      if (at + 8 > s.size()) throw std::runtime_error("truncated fixed64");
      std::uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits |= std::uint64_t{static_cast<unsigned char>(s[at + i])} << (8 * i);
      std::memcpy(&f.fixed, &bits, sizeof bits);
      at += 8;
    } else if (f.wire == 2) {
      const std::uint64_t n = read_varint(s, at);
      if (at + n > s.size()) throw std::runtime_error("truncated bytes");
      f.bytes = s.substr(at, n);
      at += n;
    } else {
      throw std::runtime_error("unexpected wire type " + std::to_string(f.wire));
    }
    out.push_back(f);
  }
  return out;
}

// The one field numbered n (the test fails when there is none or several).
Field one(const std::vector<Field>& fs, std::uint32_t n) {
  std::vector<Field> found;
  for (const Field& f : fs)
    if (f.number == n) found.push_back(f);
  EXPECT_EQ(found.size(), 1u) << "field " << n;
  return found.empty() ? Field{} : found[0];
}
bool has(const std::vector<Field>& fs, std::uint32_t n) {
  for (const Field& f : fs)
    if (f.number == n) return true;
  return false;
}

// A trace read back: its tracks by uuid and its events in file order.
struct Decoded {
  struct Track {
    std::string name;         // a counter's or a thread's name
    std::uint64_t tid = 0;    // a thread track's
    bool counter = false, bytes_unit = false, process = false;
  };
  struct Event {
    std::uint64_t ts = 0, type = 0, track = 0;
    std::string name, category;
    double value = 0;
    std::map<std::string, Field> args;  // debug annotations: their value fields
  };
  std::map<std::uint64_t, Track> tracks;
  std::vector<Event> events;
};

Decoded decode(const std::string& file) {
  Decoded d;
  for (const Field& p : fields(file)) {
    EXPECT_EQ(p.number, 1u);  // Trace.packet
    const std::vector<Field> packet = fields(p.bytes);
    EXPECT_EQ(one(packet, 10).varint, 1u);  // trusted_packet_sequence_id
    if (has(packet, 60)) {                  // track_descriptor
      const std::vector<Field> desc = fields(one(packet, 60).bytes);
      Decoded::Track t;
      const std::uint64_t uuid = one(desc, 1).varint;
      EXPECT_FALSE(d.tracks.count(uuid)) << "uuid " << uuid << " described twice";
      if (has(desc, 3)) {
        const std::vector<Field> proc = fields(one(desc, 3).bytes);
        EXPECT_EQ(one(proc, 1).varint, 1u);
        t.name = one(proc, 6).bytes;
        t.process = true;
      }
      if (has(desc, 4)) {
        const std::vector<Field> thread = fields(one(desc, 4).bytes);
        EXPECT_EQ(one(thread, 1).varint, 1u);
        t.tid = one(thread, 2).varint;
        t.name = one(thread, 5).bytes;
        EXPECT_EQ(one(desc, 5).varint, 1u);  // parent: the process
      }
      if (has(desc, 8)) {
        t.counter = true;
        t.name = one(desc, 2).bytes;
        const std::vector<Field> counter = fields(one(desc, 8).bytes);
        t.bytes_unit = has(counter, 3) && one(counter, 3).varint == 3;  // UNIT_SIZE_BYTES
        EXPECT_EQ(one(desc, 5).varint, 1u);
      }
      d.tracks[uuid] = t;
      continue;
    }
    const std::vector<Field> te = fields(one(packet, 11).bytes);  // track_event
    Decoded::Event e;
    e.ts = one(packet, 8).varint;
    e.type = one(te, 9).varint;
    e.track = one(te, 11).varint;
    EXPECT_TRUE(d.tracks.count(e.track)) << "an event on track " << e.track << " before its descriptor";
    if (has(te, 23)) e.name = one(te, 23).bytes;
    if (has(te, 22)) e.category = one(te, 22).bytes;
    if (has(te, 44)) e.value = one(te, 44).fixed;
    for (const Field& a : te) {
      if (a.number != 4) continue;
      const std::vector<Field> ann = fields(a.bytes);
      const std::string name = one(ann, 10).bytes;
      for (const Field& v : ann)
        if (v.number != 10) e.args[name] = v;
    }
    d.events.push_back(e);
  }
  return d;
}

std::string trace_bytes(const engine::TaskGraph& g, const engine::Trace& t, const TraceFilter& f = {}) {
  std::ostringstream out;
  write_trace(*perfetto_trace_events(out), g, t, f);
  return out.str();
}

using Series = std::vector<std::pair<std::uint64_t, double>>;

std::map<std::string, Series> counters_of(const Decoded& d) {
  std::map<std::string, Series> out;
  for (const Decoded::Event& e : d.events)
    if (e.type == 4) out[d.tracks.at(e.track).name].emplace_back(e.ts, e.value);
  return out;
}

TEST(PerfettoTrace, HasTheProcessAThreadTrackPerQueueAndASlicePerTask) {
  const Decoded d = decode(trace_bytes(sample_graph(), sample_trace()));
  ASSERT_TRUE(d.tracks.count(1));
  EXPECT_TRUE(d.tracks.at(1).process);
  EXPECT_EQ(d.tracks.at(1).name, "placesim");
  std::map<std::uint64_t, std::string> threads;
  for (const auto& [uuid, t] : d.tracks)
    if (t.tid) threads[t.tid] = t.name;
  EXPECT_EQ(threads, (std::map<std::uint64_t, std::string>{{1, "gpu0.compute"}, {2, "gpu0.h2d"}}));

  // Begin and end per task, in ns: copy w 0 -> 101 us on gpu0.h2d; matmul 101 -> 151, add 151 -> 171.
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string, std::uint64_t>> slices;  // type, ts, name, tid
  for (const Decoded::Event& e : d.events)
    if (e.type == 1 || e.type == 2) slices.emplace_back(e.type, e.ts, e.name, d.tracks.at(e.track).tid);
  using S = std::tuple<std::uint64_t, std::uint64_t, std::string, std::uint64_t>;
  EXPECT_EQ(slices, (std::vector<S>{{1, 0, "copy w", 2},
                                    {2, 101'000, "", 2},
                                    {1, 101'000, "matmul", 1},
                                    {2, 151'000, "", 1},
                                    {1, 151'000, "add", 1},
                                    {2, 171'000, "", 1}}));
  const Decoded::Event& copy = d.events[0];
  EXPECT_EQ(copy.category, "transfer");
  EXPECT_EQ(copy.args.at("kind").bytes, "transfer");
  EXPECT_EQ(copy.args.at("bytes").fixed, 1e6);
  EXPECT_EQ(static_cast<std::int64_t>(copy.args.at("op").varint), -1);
  EXPECT_EQ(copy.args.at("start_us").fixed, 0.0);
  EXPECT_EQ(copy.args.at("active_us").fixed, 1.0);
  EXPECT_EQ(static_cast<std::int64_t>(d.events[2].args.at("op").varint), 3);
}

TEST(PerfettoTrace, HasTheUsageAndMemoryCountersOfTheJsonTrace) {
  const Decoded d = decode(trace_bytes(sample_graph(), sample_trace()));
  const std::map<std::string, Series> counters = counters_of(d);
  EXPECT_EQ(counters, (std::map<std::string, Series>{
                          {"gpu0 rate", {{101'000, 1.0}, {171'000, 0.0}}},
                          {"pcie0.down rate", {{1'000, 10e9}, {101'000, 0.0}}},
                          {"gpu0.mem bytes", {{0, 0.0}, {101'000, 1e6}, {151'000, 1.5e6}, {171'000, 0.0}}}}));
  for (const auto& [uuid, t] : d.tracks)
    if (t.counter) {
      EXPECT_EQ(t.bytes_unit, t.name == "gpu0.mem bytes") << t.name;
    }
}

// Instants are picoseconds and the format's are nanoseconds: of a track's samples within one
// nanosecond the last is the value in force there, and the only one written; a track with no
// sample is not described at all.
TEST(PerfettoTrace, KeepsTheLastOfATracksSamplesWithinANanosecond) {
  engine::Trace t = sample_trace();
  t.usage[0] = {{101 * testdata::kUs, 0.25}, {101 * testdata::kUs + 400, 0.5}, {101 * testdata::kUs + 600, 1.0}, {171 * testdata::kUs, 0}};
  t.usage[1].clear();
  const Decoded d = decode(trace_bytes(sample_graph(), t));
  const std::map<std::string, Series> counters = counters_of(d);
  EXPECT_EQ(counters.at("gpu0 rate"), (Series{{101'000, 0.5}, {101'001, 1.0}, {171'000, 0.0}}));
  EXPECT_FALSE(counters.count("pcie0.down rate"));
  for (const auto& [uuid, track] : d.tracks) EXPECT_NE(track.name, "pcie0.down rate");
}

TEST(PerfettoTrace, KeepsWhatTheFilterKeeps) {
  TraceFilter f = parse_trace_filter({"gpu0*,time=120us..160us"});
  const Decoded d = decode(trace_bytes(sample_graph(), sample_trace(), f));
  std::vector<std::string> names;
  for (const Decoded::Event& e : d.events)
    if (e.type == 1) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"matmul", "add"}));  // copy w ran before the window
  EXPECT_EQ(counters_of(d).at("gpu0.mem bytes"), (Series{{120'000, 1e6}, {151'000, 1.5e6}}));
  EXPECT_EQ(counters_of(d).at("gpu0 rate"), (Series{{120'000, 1.0}}));
}

// The sample graph run by the engine with the trace streamed to a .pftrace file as it goes: the
// same packets as the trace written after the run (in another order: usage first), and the file
// name picks the format.
TEST(PerfettoTrace, AStreamedFileHasThePacketsOfOneWrittenAfter) {
  const engine::TaskGraph g = sample_graph();
  engine::SimOptions in_memory;
  in_memory.record_usage = true;
  const engine::Trace t = engine::simulate(g, in_memory);
  const std::string path = ::testing::TempDir() + "/streamed.pftrace";
  {
    TraceFile file(path);
    engine::SimOptions streamed;
    streamed.record_usage = true;
    streamed.usage_sink = &file;
    file.finish(g, engine::simulate(g, streamed));
  }
  std::ifstream in(path, std::ios::binary);
  const std::string streamed((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> a, b;
  for (const Field& p : fields(streamed)) a.push_back(p.bytes);
  for (const Field& p : fields(trace_bytes(g, t))) b.push_back(p.bytes);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  EXPECT_EQ(a, b);
  EXPECT_EQ(trace_format_of(path), TraceFormat::Perfetto);
  EXPECT_EQ(trace_format_of("run.perfetto-trace"), TraceFormat::Perfetto);
  EXPECT_EQ(trace_format_of("run.json"), TraceFormat::Json);
  EXPECT_EQ(trace_format_of("pftrace"), TraceFormat::Json);
  std::remove(path.c_str());
}

TEST(PerfettoTrace, IsDeterministic) {
  EXPECT_EQ(trace_bytes(sample_graph(), sample_trace()), trace_bytes(sample_graph(), sample_trace()));
}

}  // namespace
}  // namespace placesim::trace
