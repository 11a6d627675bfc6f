// The results file of `placesim validate` (HDF5): its own file, not the `run` results file,
// because a measurement is not reproducible the way a simulation is and its schema differs.
//
//   validation        one row per run: point (JSON object text), placer, status, message,
//                     predicted_s, measured_s, model_error ((predicted - measured) / measured;
//                     files before it have `error`, the opposite sign: (measured - predicted) /
//                     measured, which scripts/validate_table.py still reads), task_mean,
//                     task_p95, compared, skipped,
//                     then the recorded repeats: fastest_s, slowest_s, spread ((slowest -
//                     fastest) / measured_s), repeats (NaN / 0 where the run was not measured)
//   validation_tasks  one row per compared task: run (row of `validation`), task (TaskId),
//                     name, predicted_s, measured_s: the points of the predicted-vs-measured
//                     scatter (`placesim plot measured`)
// Root attributes: schema_version (int; 1: the first to carry one), and strings
// placesim_version, git_commit, command (h5_file.hpp, write_provenance), scenario, backend,
// scenario_text, hardware_text, created (UTC). Written to a temporary file and renamed
// (sim/core/file_io.hpp).
#pragma once

#include <string>

#include "sim/explore/validate.hpp"

namespace placesim::explore {

inline constexpr int kValidateSchemaVersion = 1;

void write_validate_h5(const std::string& path, const ValidateSet& v, const std::string& command);

// Throws InputError naming `path` unless it is a validation file: HDF5 with both tables and the
// scenario attribute (what `placesim plot measured` reads).
void check_validate_h5(const std::string& path);

}  // namespace placesim::explore
