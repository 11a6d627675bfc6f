// Seeded random flow sets, the common input of placesim's engine and of a peer simulator:
// full-duplex links of mixed capacities (each direction its own constraint), zero latency, and
// flows of whole bytes over routes of 1-4 distinct links, each starting at a whole microsecond.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/executor.hpp"

namespace placesim::peer {

struct Hop {
  int link = 0;
  bool forward = true;  // which direction of the link the flow crosses
};

struct Flow {
  std::vector<Hop> route;
  std::uint64_t bytes = 0;  // > 0
  std::int64_t start_us = 0;
};

struct FlowSet {
  std::vector<double> link_bw;  // bytes/s, the same in both directions
  std::vector<Flow> flows;
};

// 2-12 links, 10-200 flows of 1 KB to 1 GB; about a quarter of the flows start together at
// 1 ms (same-instant ties), the rest within the next 20 ms, so most overlap with others.
FlowSet random_flow_set(std::uint64_t seed);

// Each flow's completion instant in seconds, run through placesim's engine: a resource per link
// direction, a Transfer per flow using its bytes on each direction it crosses, its start as its
// latency; simulated with `opts` (sharing rates from the default number of flows in flight, or
// as set).
std::vector<double> placesim_completion_times(const FlowSet& set, const engine::SimOptions& opts = {});

}  // namespace placesim::peer
