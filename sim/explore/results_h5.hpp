// HDF5 results file: one per scenario run (DESIGN.md, "Results").
//
// Layout: a `runs` compound dataset (one row per RunResult), a `peak_memory` dataset
// (run index, device, bytes), a `comm_bytes` dataset (run index, scope, name, bytes), a
// `generation` dataset (a whole generation's run: its tokens, stride, TTFT and TPOT), a `milp`
// dataset (a MILP placer's run: where its plan came from, its own plan's makespan, objective,
// bound), a `point` group (each sweep axis typed, aligned with `runs`), and root attributes:
// schema_version, placesim_version, git_commit, command, scenario, scenario_text, hardware_text,
// scenario_hash, baseline, axes, created (UTC date). The full layout is at the top of
// results_h5.cpp.
// Written to PATH.tmp-<pid> and renamed, so a killed run never leaves a corrupt file: a sweep
// rewrites its file this way as points finish (results_file.hpp).
#pragma once

#include <string>

#include "sim/explore/run_result.hpp"

namespace placesim::explore {

// 2: runs.gap; 3: comm_bytes; 4: generation; 5: milp; 6: runs.choices, group point, command,
// scenario_hash
inline constexpr int kResultsSchemaVersion = 6;
// Older files read as runs without what later schemas added (comm_bytes, generation, milp).
inline constexpr int kOldestReadableSchemaVersion = 2;

// What --resume compares: 16 hex digits (FNV-1a, 64 bits) of the scenario as run and its
// hardware description, the same on every machine.
std::string scenario_hash(const std::string& scenario_text, const std::string& hardware_text);

void write_results_h5(const std::string& path, const RunSet& set);
// Throws InputError when the file is missing, not HDF5, or of a schema version it cannot read.
RunSet read_results_h5(const std::string& path);

}  // namespace placesim::explore
