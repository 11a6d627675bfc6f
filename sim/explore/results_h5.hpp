// HDF5 results file: one per scenario run (DESIGN.md, "Results").
//
// Layout: a `runs` compound dataset (one row per RunResult), a `peak_memory` dataset
// (run index, device, bytes), a `comm_bytes` dataset (run index, scope, name, bytes), a
// `generation` dataset (a whole generation's run: its tokens, stride, TTFT and TPOT), a `milp`
// dataset (a MILP placer's run: where its plan came from, its own plan's makespan, objective,
// bound), and root attributes: schema_version, placesim_version, git_commit, scenario,
// scenario_text, hardware_text, baseline, axes, created (UTC date).
// Written to PATH.tmp-<pid> and renamed, so an interrupted run never leaves a corrupt file.
#pragma once

#include <string>

#include "sim/explore/run_result.hpp"

namespace placesim::explore {

inline constexpr int kResultsSchemaVersion = 5;  // 2: runs.gap; 3: comm_bytes; 4: generation; 5: milp
// Older files read as runs without what later schemas added (comm_bytes, generation, milp).
inline constexpr int kOldestReadableSchemaVersion = 2;

void write_results_h5(const std::string& path, const RunSet& set);
// Throws InputError when the file is missing, not HDF5, or of a schema version it cannot read.
RunSet read_results_h5(const std::string& path);

}  // namespace placesim::explore
