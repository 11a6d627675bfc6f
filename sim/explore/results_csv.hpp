// A RunSet as CSV (RFC 4180: fields with a comma, a quote or a line break quoted, quotes
// doubled), one row per run, for spreadsheets and plotting without HDF5:
//   point_index, one column per sweep axis (numbers unquoted where the axis is numeric,
//   axis_values.hpp), placer, status, makespan_s, predicted_s, speedup, gap, ttft_s, tpot_s,
//   peak_memory_bytes (the largest over devices), comm_bytes (the plan's total), placement_s,
//   seed, message.
// An absent figure is an empty field; numbers are written in the fewest digits that read back
// as the same double.
#pragma once

#include <string>

#include "sim/explore/run_result.hpp"

namespace placesim::explore {

std::string results_csv(const RunSet& set);

}  // namespace placesim::explore
