// Perfetto's own trace format for one run of a TaskGraph: a Trace message of TracePackets
// holding TrackEvents (Perfetto's protos, protos/perfetto/trace/: trace_packet.proto,
// track_event/track_event.proto and track_descriptor.proto), for files named *.pftrace. It shows
// in ui.perfetto.dev what the JSON of chrome_trace.hpp shows, in about a quarter of the bytes: a
// counter sample is a packet of 25-30 bytes where JSON spends about 100, so a run with tens of
// millions of samples costs a fraction of the time to write.
//
// What it holds, every packet on sequence 1, timestamps in nanoseconds (picoseconds rounded to
// the nearest, which is what the UI shows of a JSON trace too):
//   * a process track (uuid 1, pid 1, "placesim");
//   * per lane, a thread track (uuid 2^32 + QueueId, tid QueueId + 1, named by the queue), and
//     per task that ran a TYPE_SLICE_BEGIN at its start (name, category = kind, debug
//     annotations kind, bytes, op, start_us, active_us as in the JSON) and a TYPE_SLICE_END at its
//     end;
//   * per counter track that has a sample, a counter track (uuid 2 + its number, child of the
//     process, named "<name> <series>" as the UI names a JSON counter; a pool's in bytes), its
//     descriptor before its first sample, and a TYPE_COUNTER event per sample; of several samples
//     of a track within one nanosecond only the last is written (the value in force there).
#pragma once

#include <memory>
#include <ostream>

#include "sim/trace/trace_events.hpp"

namespace placesim::trace {

std::unique_ptr<TraceEvents> perfetto_trace_events(std::ostream& out);

}  // namespace placesim::trace
