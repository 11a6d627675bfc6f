// What simulate and run share about the traces they write: --trace-filter, read the same way by
// each, and run's --trace-format (docs/results.md, "Traces").
#pragma once

#include "app/cli/command.hpp"
#include "app/explore/runner.hpp"
#include "sim/trace/trace_file.hpp"

namespace placesim::cli {

void add_trace_filter_option(po::options_description& opts);  // --trace-filter
void add_trace_format_option(po::options_description& opts);  // run: --trace-format
// The filter --trace-filter gives (keeps everything when absent); InputError when it is given
// without --trace, or a term is bad.
trace::TraceFilter trace_filter_args(const po::variables_map& vm);
// run: the directory --trace names (created), the format and the filter.
explore::TraceRequest trace_request_args(const po::variables_map& vm);

}  // namespace placesim::cli
