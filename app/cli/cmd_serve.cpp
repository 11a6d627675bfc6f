// placesim serve: each placer of a scenario serving its request stream (docs/scenarios.md,
// "Serving a request stream"), at every sweep point: latency percentiles, throughput, SLO
// attainment. It prints them, and with -o writes a results file that compare and plot read.
#include <fmt/format.h>

#include "app/cli/command.hpp"
#include "app/cli/scenario_args.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/results_h5.hpp"
#include "app/explore/serving/served_set.hpp"
#include "app/explore/text_table.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/units.hpp"

namespace placesim::cli {
namespace {

nlohmann::ordered_json run_json(const explore::ServedRun& r) {
  nlohmann::ordered_json j = {{"placer", r.placer}, {"status", r.status}, {"message", r.message}};
  j.update(explore::serving_json(r));
  return j;
}

// A run that did not serve shows its status in the table and its reason under it.
std::vector<std::string> run_row(const explore::ServedRun& r) {
  if (r.status != "ok") {
    std::vector<std::string> row(13, "-");
    row[0] = r.placer;
    row[1] = r.status;
    return row;
  }
  const explore::ServingMetrics& m = r.metrics;
  return {r.placer,
          std::to_string(r.replicas),
          std::to_string(r.kv_blocks),
          units::format_seconds(m.ttft.p50, 2),
          units::format_seconds(m.ttft.p99, 2),
          units::format_seconds(m.tpot.p50, 2),
          units::format_seconds(m.tpot.p99, 2),
          units::format_seconds(m.e2e.p99, 2),
          fmt::format("{:.2f}", m.requests_per_s),
          fmt::format("{:.0f}", m.tokens_per_s),
          fmt::format("{:.1f}%", 100 * m.slo_attainment),
          std::to_string(m.preemptions),
          fmt::format("{:.0f}%", 100 * m.kv_mean_use)};
}

}  // namespace

int cmd_serve(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file with `requests:`")(
      "output,o", po::value<std::string>(),
      "results file to write (HDF5, as run's: compare --metric p99_ttft and plot latency-load or ttft-cdf read it); "
      "none by default")(
      "trace", po::value<std::string>(),
      "write each point's served stream per placer to DIR/<point>-<placer>.json: a Chrome trace for ui.perfetto.dev, a "
      "lane per replica's iterations and each request's life");
  add_override_options(opts);
  Parsed a;
  if (!parse_args(command_named("serve"), args, opts, {"scenario"}, a)) return 0;
  if (a.vm.count("output")) check_writable(a.vm["output"].as<std::string>());
  const explore::Scenario s = load_stream_scenario(a.vm, "serve");
  std::vector<std::vector<explore::ServedRun>> served;
  const std::vector<bool> numeric = explore::numeric_axes(s);
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  std::string text;
  for (const explore::Point& p : s.points) {
    const std::vector<explore::ServedRun>& runs = served.emplace_back(explore::serve_point(s, p, a.vm.count("trace") ? a.vm["trace"].as<std::string>() : ""));
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::vector<std::vector<std::string>> table;
    for (const explore::ServedRun& r : runs) {
      rows.push_back(run_json(r));
      table.push_back(run_row(r));
    }
    points.push_back({{"point", explore::point_json(p.values, s.axes, numeric)}, {"runs", rows}});
    text += point_title(s, p) + "\n";
    table.insert(table.begin(), {"placer", "replicas", "KV blocks", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "E2E p99",
                                 "req/s", "tok/s", "SLO met", "preempted", "KV used"});
    text += explore::render_table(table, explore::TableStyle::Text);
    for (const explore::ServedRun& r : runs)
      text += r.status != "ok" ? fmt::format("  {}: {}: {}\n", r.placer, r.status, r.message)
                               : fmt::format("  {}: {} iterations timed by {} simulations, within {:.2f}% of exact "
                                             "simulation at {} sampled iterations\n",
                                             r.placer, r.iterations, r.simulations, 100 * r.bucket_error,
                                             r.error_samples);
    text += "\n";
  }
  if (a.vm.count("output")) {
    const std::string out = a.vm["output"].as<std::string>();
    explore::write_results_h5(out, explore::served_set(s, served, command_line("serve", args)));
    text += "results: " + out + "\n";
  }
  if (a.json) {
    print_json({{"scenario", s.name}, {"points", points}});
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
