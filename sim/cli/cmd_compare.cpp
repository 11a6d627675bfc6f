// placesim compare: the comparison table of a results file, against any baseline.
#include <cstdio>

#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/explore/report.hpp"
#include "sim/explore/results_h5.hpp"

namespace placesim::cli {

int cmd_compare(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("results", po::value<std::string>()->required(), "results file written by placesim run")(
      "baseline", po::value<std::string>()->default_value(""), "placer to compute speed-ups against (default: the run's)")(
      "metric", po::value<std::string>()->default_value("makespan"), "makespan (simulated; a generation's end-to-end latency), predicted (placer's own), or a generation's ttft "
      "(time to first token) or tpot (time per output token)");
  Parsed a;
  if (!parse_args(commands()[3], args, opts, {"results"}, a)) return 0;
  const explore::RunSet set = explore::read_results_h5(a.vm["results"].as<std::string>());
  explore::Metric metric;
  try {
    metric = explore::parse_metric(a.vm["metric"].as<std::string>());
  } catch (const InputError& e) {
    throw InputError(SourceLoc{"--metric"}, e.detail());
  }
  const explore::Comparison c = explore::compare(set, a.vm["baseline"].as<std::string>(), metric);
  if (a.json) {
    nlohmann::ordered_json j = explore::comparison_to_json(c);
    j["scenario"] = set.scenario;
    print_json(j);
  } else {
    std::fputs(("scenario " + set.scenario + "\n\n" + explore::format_comparison(c)).c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
