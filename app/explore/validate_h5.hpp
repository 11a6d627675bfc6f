// The results file of `placesim validate` (HDF5), laid out as docs/formats.md, "Results files",
// says: its own file, not the `run` results file, because a measurement is not reproducible the
// way a simulation is and its schema differs. Written to a temporary file and renamed
// (sim/core/file_io.hpp).
#pragma once

#include <string>

#include "app/explore/validate.hpp"

namespace placesim::explore {

inline constexpr int kValidateSchemaVersion = 1;

void write_validate_h5(const std::string& path, const ValidateSet& v, const std::string& command);

// Throws InputError naming `path` unless it is a validation file: HDF5 with both tables and the
// scenario attribute (what `placesim plot measured` reads).
void check_validate_h5(const std::string& path);

}  // namespace placesim::explore
