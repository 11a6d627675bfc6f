// placesim compare: the comparison tables of one or several results files, against any baseline.
#include <cstdio>

#include "app/cli/command.hpp"
#include "sim/core/error.hpp"
#include "app/explore/compare_files.hpp"
#include "app/explore/compare_summary.hpp"
#include "app/explore/report.hpp"
#include "app/explore/results_h5.hpp"

namespace placesim::cli {

int cmd_compare(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("results", po::value<std::vector<std::string>>()->multitoken()->required(),
                     "results files written by placesim run; several are compared side by side")(
      "baseline", po::value<std::string>()->default_value(""), "placer to compute speed-ups against (default: the run's)")(
      "metric", po::value<std::string>()->default_value("makespan"),
      "makespan (simulated; a generation's end-to-end latency), predicted (placer's own), or a generation's ttft "
      "(time to first token) or tpot (time per output token)")(
      "tie", po::value<double>()->default_value(explore::kDefaultTie),
      "win/tie/loss: values within this fraction of the baseline's tie")("markdown", "print Markdown tables");
  Parsed a;
  if (!parse_args(command_named("compare"), args, opts, {"results"}, a)) return 0;
  explore::Metric metric;
  try {
    metric = explore::parse_metric(a.vm["metric"].as<std::string>());
  } catch (const InputError& e) {
    throw InputError(SourceLoc{"--metric"}, e.detail());
  }
  const double tie = a.vm["tie"].as<double>();
  if (!(tie >= 0 && tie < 1)) throw InputError(SourceLoc{"--tie"}, "expected a fraction in [0, 1), such as 0.01");
  // Every file is read before anything is printed: a bad one stops the command with no output.
  std::vector<explore::NamedRunSet> files;
  for (const std::string& path : a.vm["results"].as<std::vector<std::string>>())
    files.push_back({path, explore::read_results_h5(path)});
  const std::string baseline = a.vm["baseline"].as<std::string>();
  const explore::RunSet set = explore::merge_results(files, baseline);
  const explore::Comparison c = explore::compare(set, baseline, metric);
  const explore::CompareSummary s = explore::summarize(c, tie);
  if (a.json) {
    print_json(explore::compare_document(set.scenario, c, s));
  } else {
    const auto style = a.vm.count("markdown") ? explore::TableStyle::Markdown : explore::TableStyle::Text;
    const std::string text = (style == explore::TableStyle::Markdown ? "## " : "") + std::string("scenario ") +
                             set.scenario + "\n\n" + explore::format_comparison(c, style) + "\n" +
                             explore::format_summary(c, s, style);
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
