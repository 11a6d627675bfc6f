#include "app/cli/scenario_args.hpp"

#include <cstdio>
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/results_h5.hpp"

namespace placesim::cli {

void add_override_options(po::options_description& opts) {
  opts.add_options()("set", po::value<std::vector<std::string>>()->composing(),
                     "override a scenario key before the sweep: --set model.batch=4 (repeatable)")(
      "dim", po::value<std::vector<std::string>>()->composing(),
      "value of a dynamic ONNX dimension: --dim batch=4 (repeatable; same as --set model.dims.batch=4)");
}

namespace {

std::vector<std::string> overrides(const po::variables_map& vm) {
  std::vector<std::string> sets;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();
  if (vm.count("dim"))
    for (const std::string& d : vm["dim"].as<std::vector<std::string>>()) sets.push_back("model.dims." + d);
  return sets;
}

}  // namespace

explore::Scenario load_scenario_args(const po::variables_map& vm) {
  return explore::load_scenario(vm["scenario"].as<std::string>(), overrides(vm));
}

std::string default_results_path(const po::variables_map& vm, const std::string& stem) {
  std::string joined;
  for (const std::string& o : overrides(vm)) joined += (joined.empty() ? "" : ",") + o;
  if (joined.empty()) return "results/" + stem + ".h5";
  const bool plain = joined.size() <= 80 && joined.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                                      "0123456789_-.=,+") == std::string::npos;
  return "results/" + stem + "@" + (plain ? joined : "set-" + explore::scenario_hash(joined, "").substr(0, 8)) + ".h5";
}

int print_points(const explore::Scenario& s, bool json) {
  nlohmann::ordered_json points = nlohmann::ordered_json::array(), placers = nlohmann::ordered_json::array();
  std::string text = fmt::format("scenario {}: {} sweep point(s) x {} placer(s)\n\npoints (--point N):\n", s.name,
                                 s.points.size(), s.placers.size());
  const std::vector<bool> numeric = explore::numeric_axes(s);
  for (const explore::Point& p : s.points) {
    std::string line;
    for (auto& [axis, value] : p.values) line += (line.empty() ? "" : " ") + axis + "=" + value;
    points.push_back({{"index", p.index}, {"point", explore::point_json(p.values, s.axes, numeric)}});
    text += fmt::format("  {:>3}  {}\n", p.index, line.empty() ? "(single point)" : line);
  }
  text += "\nplacers (--placer LABEL):\n";
  for (const scheduler::PlacerSpec& p : s.placers) {
    placers.push_back(p.label);
    text += "  " + p.label + (p.label == s.baseline ? "  (baseline)" : "") + "\n";
  }
  if (json) {
    print_json({{"scenario", s.name}, {"points", points}, {"placers", placers}});
  } else {
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

const explore::Point& chosen_point(const explore::Scenario& s, const po::variables_map& vm, const std::string& command) {
  const int point = vm["point"].as<int>();
  if (point < 0 || point >= static_cast<int>(s.points.size()))
    throw InputError(SourceLoc{command},
                     fmt::format("--point {} is out of range: the scenario has {} point(s)", point, s.points.size()));
  return s.points[point];
}

explore::Scenario load_stream_scenario(const po::variables_map& vm, const std::string& command) {
  explore::Scenario s = load_scenario_args(vm);
  if (!s.root.has("requests")) s.root.fail(fmt::format("`placesim {}` needs a request stream: a `requests:` key", command));
  return s;
}

std::string point_title(const explore::Scenario& s, const explore::Point& p) {
  std::string values;
  for (auto& [axis, value] : p.values) values += (values.empty() ? "" : ", ") + axis + "=" + value;
  return values.empty() ? s.name : s.name + " (" + values + ")";
}

}  // namespace placesim::cli
