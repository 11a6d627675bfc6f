// A served stream as a Chrome trace-event JSON file, for Perfetto (ui.perfetto.dev): what
// `placesim serve --trace DIR` writes per point and placer.
//   * process 1 "replicas": a lane per replica (tid k + 1, "replica k"), one complete event per
//     iteration (ts, dur in microseconds; name: what it ran; args: the shape and the KV blocks
//     held), and a counter track per replica of the KV blocks held, sampled where it changes;
//   * process 2 "requests": each request's life as nested async events (id: its index in the
//     stream): "request i" from arrival to its last token, within it "to first token" (arrival to
//     the first token) and "generating" (first to last token).
// One event per line; the same inputs give the same bytes.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "app/explore/serving/serving_loop.hpp"

namespace placesim::explore {

void write_stream_trace(std::ostream& out, const std::vector<models::Request>& requests, const ServingTrace& trace,
                        const std::vector<IterationEvent>& iterations);

// Written whole or not at all (sim/core/file_io.hpp); InputError naming PATH when it cannot be.
void write_stream_trace_file(const std::string& path, const std::vector<models::Request>& requests,
                             const ServingTrace& trace, const std::vector<IterationEvent>& iterations);

}  // namespace placesim::explore
