// The all-pairs exchange of the direct algorithms, shared with proportional reduce-scatter
// (which is direct reduce-scatter with slices sized by capability) and flexreduce's steps.
#pragma once

#include <functional>
#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// Every rank i sends every other rank j `bytes(i, j)` per chunk (nothing where that is 0), all
// pairs at once, k chunks queued per pair on `channel`; rank i's sends of chunk c wait for
// start[i][c] (if `start` is not empty and that entry is not -1). Returns, per rank and chunk,
// the transfers that brought it that chunk.
ChunkDeps exchange(Lowering& low, const std::function<double(int, int)>& bytes,
                   const std::vector<std::vector<TaskId>>& start, const char* phase, int channel = 0);

// Per rank and chunk, a join after the transfers `arrived` lists (-1 where there are none): where
// the rank's next phase starts.
std::vector<std::vector<TaskId>> joined(Lowering& low, const ChunkDeps& arrived, const char* label);

}  // namespace placesim::engine
