// The HDF5 results file of `placesim run`, laid out as docs/formats.md, "Results files", says.
// Written to PATH.tmp-<pid> and renamed, so a killed run never leaves a corrupt file: a sweep
// rewrites its file this way as points finish (results_file.hpp).
#pragma once

#include <string>

#include "app/explore/run_result.hpp"

namespace placesim::explore {

// What each version added: docs/formats.md (a new one goes there too).
inline constexpr int kResultsSchemaVersion = 7;
// Older files read as runs without what later schemas added (comm_bytes, generation, milp).
inline constexpr int kOldestReadableSchemaVersion = 2;

// What --resume compares: 16 hex digits (FNV-1a, 64 bits) of the scenario as run and its
// hardware description, the same on every machine.
std::string scenario_hash(const std::string& scenario_text, const std::string& hardware_text);

void write_results_h5(const std::string& path, const RunSet& set);
// Throws InputError when the file is missing, not HDF5, or of a schema version it cannot read.
RunSet read_results_h5(const std::string& path);

}  // namespace placesim::explore
