#include "sim/cli/scenario_args.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::cli {

void add_override_options(po::options_description& opts) {
  opts.add_options()("set", po::value<std::vector<std::string>>()->composing(),
                     "override a scenario key before the sweep: --set model.batch=4 (repeatable)")(
      "dim", po::value<std::vector<std::string>>()->composing(),
      "value of a dynamic ONNX dimension: --dim batch=4 (repeatable; same as --set model.dims.batch=4)");
}

explore::Scenario load_scenario_args(const po::variables_map& vm) {
  std::vector<std::string> sets;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();
  if (vm.count("dim"))
    for (const std::string& d : vm["dim"].as<std::vector<std::string>>()) sets.push_back("model.dims." + d);
  return explore::load_scenario(vm["scenario"].as<std::string>(), sets);
}

const explore::Point& chosen_point(const explore::Scenario& s, const po::variables_map& vm, const std::string& command) {
  const int point = vm["point"].as<int>();
  if (point < 0 || point >= static_cast<int>(s.points.size()))
    throw InputError(SourceLoc{command},
                     fmt::format("--point {} is out of range: the scenario has {} point(s)", point, s.points.size()));
  return s.points[point];
}

}  // namespace placesim::cli
