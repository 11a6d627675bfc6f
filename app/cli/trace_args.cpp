#include "app/cli/trace_args.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/error.hpp"

namespace placesim::cli {

void add_trace_filter_option(po::options_description& opts) {
  opts.add_options()("trace-filter", po::value<std::vector<std::string>>(),
                     "keep part of each trace: name globs of lanes (queues) and counter tracks (links, devices, "
                     "memory pools), and time=FROM..TO, comma-separated or repeated: --trace-filter "
                     "'*leaf3*,gpu0*,time=100ms..200ms' (docs/results.md, Traces)");
}

trace::TraceFilter trace_filter_args(const po::variables_map& vm) {
  if (!vm.count("trace-filter")) return {};
  if (!vm.count("trace")) throw InputError(SourceLoc{"--trace-filter"}, "filters a trace: give --trace too");
  return trace::parse_trace_filter(vm["trace-filter"].as<std::vector<std::string>>());
}

explore::TraceRequest trace_request_args(const po::variables_map& vm) {
  explore::TraceRequest r;
  r.filter = trace_filter_args(vm);
  if (!vm.count("trace")) return r;
  r.dir = vm["trace"].as<std::string>();
  std::error_code ec;
  std::filesystem::create_directories(r.dir, ec);
  if (ec) throw InputError(SourceLoc{r.dir}, "cannot create trace directory: " + ec.message());
  return r;
}

}  // namespace placesim::cli
