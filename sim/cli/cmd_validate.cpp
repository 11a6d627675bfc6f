// placesim validate: each placer's plan at each sweep point, simulated and run for real on a
// backend, compared task by task; a table (or --json), an HDF5 file (sim/explore/validate_h5.hpp)
// and optionally the predicted and measured Chrome traces of every run.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>

#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/explore/validate.hpp"
#include "sim/explore/validate_h5.hpp"

namespace placesim::cli {

int cmd_validate(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file")(
      "backend", po::value<std::string>()->default_value("cpu"), "cpu or cuda")(
      "output,o", po::value<std::string>(), "results file (default: results/validate/<scenario>-<backend>.h5)")(
      "repeats", po::value<int>()->default_value(3), "recorded runs per plan; the median-makespan run is kept")(
      "warmup", po::value<int>()->default_value(1), "unrecorded runs first")(
      "watchdog", po::value<double>()->default_value(60), "seconds before a run that has not finished is ended")(
      "trace", po::value<std::string>(), "write predicted and measured Chrome traces per run into this directory")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario key: --set hardware=local.yaml");
  const Command& self = *std::find_if(commands().begin(), commands().end(), [](const Command& c) { return c.name == "validate"; });
  Parsed a;
  if (!parse_args(self, args, opts, {"scenario"}, a)) return 0;
  std::vector<std::string> sets;
  if (a.vm.count("set")) sets = a.vm["set"].as<std::vector<std::string>>();

  explore::ValidateOptions vo;
  vo.backend = a.vm["backend"].as<std::string>();
  vo.run.repeats = a.vm["repeats"].as<int>();
  vo.run.warmup = a.vm["warmup"].as<int>();
  vo.run.watchdog_s = a.vm["watchdog"].as<double>();
  if (vo.run.repeats < 1 || vo.run.warmup < 0 || !(vo.run.watchdog_s > 0))
    throw InputError(SourceLoc{"placesim validate"}, "--repeats must be >= 1, --warmup >= 0 and --watchdog > 0");
  if (a.vm.count("trace")) {
    vo.trace_dir = a.vm["trace"].as<std::string>();
    std::error_code ec;
    std::filesystem::create_directories(vo.trace_dir, ec);
    if (ec) throw InputError(SourceLoc{vo.trace_dir}, "cannot create trace directory: " + ec.message());
  }
  const explore::Scenario s = explore::load_scenario(a.vm["scenario"].as<std::string>(), sets);
  const explore::ValidateSet v = explore::validate_scenario(s, vo);
  const std::string out = a.vm.count("output") ? a.vm["output"].as<std::string>()
                                               : fmt::format("results/validate/{}-{}.h5", s.name, vo.backend);
  std::string command = "placesim validate";
  for (const std::string& w : args) command += " " + w;
  explore::write_validate_h5(out, v, command);

  if (a.json) {
    print_json(explore::to_json(v));
  } else {
    std::fputs((explore::format_table(v) + fmt::format("\nresults: {}\n", out)).c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
