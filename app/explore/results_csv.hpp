// A RunSet as CSV, one row per run, for spreadsheets and plotting without HDF5: its columns are
// docs/formats.md, "Results files".
#pragma once

#include <string>

#include "app/explore/run_result.hpp"

namespace placesim::explore {

std::string results_csv(const RunSet& set);

}  // namespace placesim::explore
