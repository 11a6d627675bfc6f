// Which part of a run a trace keeps (--trace-filter): the lanes and counter tracks whose names
// match one of its globs (a queue's name for a lane, a resource's or pool's for a track), and
// what overlaps its time window: a task that ran at some instant in it, and each track's samples
// in it, with the value in force at the window's start as a sample there. Every trace format
// (trace_file.hpp) applies it the same way.
#pragma once

#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.hpp"

namespace placesim::trace {

struct TraceFilter {
  std::vector<std::string> names;  // shell globs (fnmatch); none: every lane and track
  TimePs from = 0;
  TimePs to = std::numeric_limits<TimePs>::max();
  bool keeps(std::string_view name) const;
};

// --trace-filter's terms, each a comma-separated list of name globs and `time=FROM..TO`
// (durations such as 100ms; either end may be left out; one window in all). InputError naming
// `option` for a bad term.
TraceFilter parse_trace_filter(const std::vector<std::string>& terms, const std::string& option = "--trace-filter");

}  // namespace placesim::trace
