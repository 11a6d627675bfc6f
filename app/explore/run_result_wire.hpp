// A point's runs as bytes and back, exactly (CBOR: doubles bit for bit, the placer's choices
// included): how MPI ranks send rank 0 what they ran, and a results file read in isolation
// comes back.
#pragma once

#include <cstdint>
#include <vector>

#include "app/explore/run_result.hpp"

namespace placesim::explore {

std::vector<std::uint8_t> runs_to_wire(const std::vector<RunResult>& runs);
std::vector<RunResult> runs_from_wire(const std::vector<std::uint8_t>& bytes);
// A whole set, its header included: how a results file read in a child process comes back
// (results_h5.hpp).
std::vector<std::uint8_t> set_to_wire(const RunSet& set);
RunSet set_from_wire(const std::vector<std::uint8_t>& bytes);

}  // namespace placesim::explore
