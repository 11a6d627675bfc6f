// Runs flow sets through SimGrid (3.32, s4u) as a peer of placesim's engine: its CM02 network
// model with the settings under which it is pure max-min over byte rates (docs/execution.md, "Sharing"): zero latency, TCP-gamma 0, latency and bandwidth factors 1, weight-S 0, no
// crosstraffic, split-duplex links (each direction its own constraint).
#pragma once

#include <optional>
#include <vector>

#include "tests/peer/flow_sets.hpp"

namespace placesim::peer {

// Per set, each flow's completion instant in seconds from the set's start. The sets run one
// after the other in one simulation, each in its own zone with its own links. SimGrid allows one
// engine per process: call this at most once. nullopt when placesim was configured without
// SimGrid.
std::optional<std::vector<std::vector<double>>> simgrid_completion_times(const std::vector<FlowSet>& sets);

}  // namespace placesim::peer
