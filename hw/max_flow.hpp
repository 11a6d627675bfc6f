// The most bytes per second a topology's links can carry from some devices to others at once:
// a maximum flow over the link directions (each of its bandwidth), from `sources` (each capped
// at its memory_bw where it states one: a host memory's DRAM) to `sinks`. By max-flow min-cut
// it is also the capacity of the narrowest cut between them, so every byte that must go from a
// source to a sink takes at least bytes / max_flow seconds in all (critical-path's bound).
// Dinic's algorithm; 0 when no sink is reachable, and with an ideal network (no links used).
#pragma once

#include <vector>

#include "hw/topology.hpp"

namespace placesim::hw {

double max_flow(const Topology& topo, const std::vector<int>& sources, const std::vector<int>& sinks);

}  // namespace placesim::hw
