// placesim capacity: per placer, the highest arrival rate at which the scenario's request stream
// meets latency targets (docs/scenarios.md, "Serving a request stream"). It prints; it writes no
// results file yet.
#include <fmt/format.h>

#include "app/cli/command.hpp"
#include "app/cli/scenario_args.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/serving/capacity.hpp"
#include "app/explore/text_table.hpp"
#include "sim/core/units.hpp"

namespace placesim::cli {

int cmd_capacity(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file with `requests:`")(
      "slo", po::value<std::string>()->required(),
      "targets, comma-separated: METRIC_STAT=DURATION with METRIC ttft, tpot or e2e and STAT p50, p90, p99 or mean "
      "(ttft_p99=2s,tpot_p99=100ms)");
  add_override_options(opts);
  Parsed a;
  if (!parse_args(command_named("capacity"), args, opts, {"scenario"}, a)) return 0;
  const std::vector<explore::SloBound> slo =
      explore::parse_slo_bounds(a.vm["slo"].as<std::string>(), SourceLoc{"--slo"});
  const explore::Scenario s = load_stream_scenario(a.vm, "capacity");
  const std::vector<bool> numeric = explore::numeric_axes(s);
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  std::string text;
  for (const explore::Point& p : s.points) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::vector<std::vector<std::string>> table = {{"placer", "replicas", "max req/s", "TTFT p99", "TPOT p99", "E2E p99", "runs"}};
    std::string notes;
    for (const explore::CapacityRun& r : explore::capacity_point(s, p, slo)) {
      const explore::ServingMetrics& m = r.at.metrics;
      rows.push_back({{"placer", r.placer}, {"status", r.status}, {"message", r.message}, {"replicas", r.at.replicas},
                      {"max_rate", r.max_rate},
                      {"ttft_p99_s", m.ttft.p99}, {"tpot_p99_s", m.tpot.p99}, {"e2e_p99_s", m.e2e.p99},
                      {"evaluations", r.evaluations}});
      if (r.status != "ok") {
        table.push_back({r.placer, "-", r.status, "-", "-", "-", std::to_string(r.evaluations)});
        notes += fmt::format("  {}: {}: {}\n", r.placer, r.status, r.message);
        continue;
      }
      table.push_back({r.placer, std::to_string(r.at.replicas), fmt::format("{:.3g}", r.max_rate), units::format_seconds(m.ttft.p99, 2),
                       units::format_seconds(m.tpot.p99, 2), units::format_seconds(m.e2e.p99, 2),
                       std::to_string(r.evaluations)});
    }
    points.push_back({{"point", explore::point_json(p.values, s.axes, numeric)}, {"runs", rows}});
    text += fmt::format("{}: the highest rate meeting {}\n", point_title(s, p), a.vm["slo"].as<std::string>());
    text += explore::render_table(table, explore::TableStyle::Text) + notes + "\n";
  }
  if (a.json) {
    print_json({{"scenario", s.name}, {"slo", a.vm["slo"].as<std::string>()}, {"points", points}});
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
