// Ring steps, shared by the ring algorithms and the phases of hierarchical all-reduce.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

// `steps` steps around `members` (ranks, in ring order): at step s member j sends `bytes` of
// each chunk to member j+1, once it received that chunk's step s-1 from member j-1 (step 0:
// once `start[j][c]` ended). Its own step s-1 comes first by the connection's queue order;
// appended step-major (all chunks of step s, then step s+1) so chunk c+1 of a step follows
// chunk c. Returns, per member and chunk, its last send and its last receive.
ChunkDeps ring_steps(Lowering& low, const std::vector<int>& members, int steps, double bytes, const ChunkDeps& start,
                     const std::string& label);

}  // namespace placesim::engine
