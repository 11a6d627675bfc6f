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

void add_trace_format_option(po::options_description& opts) {
  opts.add_options()("trace-format", po::value<std::string>()->default_value("json"),
                     "with --trace: json (Chrome JSON, <point>-<placer>.json, what `placesim plot` reads) or pftrace "
                     "(Perfetto's protobuf, .pftrace: a quarter of the bytes and of the time, for runs with millions of "
                     "samples); both open in ui.perfetto.dev");
}

trace::TraceFilter trace_filter_args(const po::variables_map& vm) {
  if (!vm.count("trace-filter")) return {};
  if (!vm.count("trace")) throw InputError(SourceLoc{"--trace-filter"}, "filters a trace: give --trace too");
  return trace::parse_trace_filter(vm["trace-filter"].as<std::vector<std::string>>());
}

explore::TraceRequest trace_request_args(const po::variables_map& vm) {
  explore::TraceRequest r;
  r.filter = trace_filter_args(vm);
  const std::string format = vm["trace-format"].as<std::string>();
  if (format != "json" && format != "pftrace")
    throw InputError(SourceLoc{"--trace-format"}, "expected json or pftrace, got '" + format + "'");
  r.format = format == "pftrace" ? trace::TraceFormat::Perfetto : trace::TraceFormat::Json;
  if (!vm.count("trace")) {
    if (!vm["trace-format"].defaulted()) throw InputError(SourceLoc{"--trace-format"}, "formats the traces: give --trace DIR too");
    return r;
  }
  r.dir = vm["trace"].as<std::string>();
  std::error_code ec;
  std::filesystem::create_directories(r.dir, ec);
  if (ec) throw InputError(SourceLoc{r.dir}, "cannot create trace directory: " + ec.message());
  return r;
}

}  // namespace placesim::cli
