// The all-pairs exchange of the direct algorithms, shared with proportional reduce-scatter
// (which is direct reduce-scatter with slices sized by capability).
#pragma once

#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// Every rank sends every other rank j `bytes_to[j]` per chunk, all pairs at once, k chunks
// queued per pair; rank i's sends of chunk c wait for start[i][c] (if `start` is not empty).
// Returns, per rank and chunk, the transfers that brought it that chunk.
ChunkDeps exchange(Lowering& low, const std::vector<double>& bytes_to, const std::vector<std::vector<TaskId>>& start,
                   const char* phase);

}  // namespace placesim::engine
