// placesim export: a results file in another format (CSV: app/explore/results_csv.hpp), to
// stdout or a file.
#include <algorithm>
#include <cstdio>

#include "app/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "app/explore/results_csv.hpp"
#include "app/explore/results_h5.hpp"

namespace placesim::cli {

int cmd_export(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("results", po::value<std::string>()->required(), "results file written by placesim run")(
      "csv", "CSV, one row per run (the only format so far; required)")(
      "output,o", po::value<std::string>(), "write to this file instead of stdout");
  Parsed a;
  if (!parse_args(command_named("export"), args, opts, {"results"}, a)) return 0;
  if (!a.vm.count("csv")) throw InputError(SourceLoc{"placesim export"}, "name the format to write: --csv");
  const std::string csv = explore::results_csv(explore::read_results_h5(a.vm["results"].as<std::string>()));
  if (a.vm.count("output")) write_file_atomic(a.vm["output"].as<std::string>(), csv);
  else std::fwrite(csv.data(), 1, csv.size(), stdout);
  return 0;
}

}  // namespace placesim::cli
