// placesim validate: each placer's plan at each sweep point, simulated and run for real on a
// backend, compared task by task; a table (or --json), an HDF5 file (app/explore/validate_h5.hpp)
// and optionally the predicted and measured Chrome traces of every run.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <fmt/format.h>

#include "backend/calibrate/machine.hpp"
#include "hw/topology_yaml.hpp"
#include "app/cli/command.hpp"
#include "app/cli/scenario_args.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/output_lock.hpp"
#include "sim/core/progress.hpp"
#include "app/explore/validate.hpp"
#include "app/explore/validate_h5.hpp"

namespace placesim::cli {
namespace {

// A validation is of the model on this machine only if its costs are this machine's: a hardware
// file whose calibration names another machine (or none) gets a note saying so and what to do.
// The first point's hardware speaks for the scenario.
void note_other_machine(const explore::Scenario& s, const std::string& backend) {
  const hw::Topology topo = hw::load_topology(explore::point_yaml(s, s.points.front()).at("hardware"));
  const std::string here = backend::machine_name();
  const Yaml recorded = topo.calibration ? topo.calibration->get("machine") : Yaml();
  if (recorded.defined() && recorded.str().find(here) != std::string::npos) return;
  const std::string was = recorded.defined() ? fmt::format("was calibrated on {}", recorded.str())
                                             : "records no machine its calibration was measured on";
  std::fprintf(stderr,
               "placesim: note: hardware '%s' %s; this machine is %s. Its predictions use those costs: calibrate "
               "this machine (placesim calibrate --backend %s -o hw/mine.yaml) and validate with --set "
               "hardware=hw/mine.yaml\n",
               topo.name.c_str(), was.c_str(), here.c_str(), backend.c_str());
}

// "1,2" -> {1, 2}: whole numbers >= 1, comma-separated.
std::vector<int> core_counts(const std::string& list) {
  std::vector<int> out;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    const bool digits = !item.empty() && item.size() < 6 &&
                        std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits || std::stoi(item) < 1)
      throw InputError(SourceLoc{"--cpu-cores"},
                       fmt::format("expected core counts >= 1 separated by commas, such as 1,2; got '{}'", list));
    out.push_back(std::stoi(item));
    at = comma + 1;
  }
  return out;
}

}  // namespace

int cmd_validate(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file")(
      "backend", po::value<std::string>()->default_value("cpu"), "cpu or cuda")(
      "output,o", po::value<std::string>(), "results file (default: results/<scenario>-<backend>.h5; with --set, results/<name>-<backend>@<overrides>.h5)")(
      "repeats", po::value<int>()->default_value(3), "recorded runs per plan; the median-makespan run is kept")(
      "warmup", po::value<int>()->default_value(1), "unrecorded runs first")(
      "watchdog", po::value<double>()->default_value(60), "seconds before a run that has not finished is ended")(
      "trace", po::value<std::string>(), "write predicted and measured Chrome traces per run into this directory")(
      "cpu-cores", po::value<std::string>(),
      "run every plan once per core count in this list (such as 1,2), its CPU ops on that many cores")(
      "set", po::value<std::vector<std::string>>()->composing(), "override a scenario key: --set hardware=local.yaml");
  Parsed a;
  if (!parse_args(command_named("validate"), args, opts, {"scenario"}, a)) return 0;
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
  if (a.vm.count("cpu-cores")) vo.cpu_cores = core_counts(a.vm["cpu-cores"].as<std::string>());
  const explore::Scenario s = load_scenario_args(a.vm);
  note_other_machine(s, vo.backend);
  const std::string out =
      a.vm.count("output") ? a.vm["output"].as<std::string>() : default_results_path(a.vm, s.name + "-" + vo.backend);
  const OutputLock lock(out);
  check_writable(out);  // before the first measurement, which may take minutes
  const size_t runs = s.points.size() * s.placers.size() * std::max<size_t>(1, vo.cpu_cores.size());
  std::optional<Progress> progress(std::in_place, "runs", static_cast<int>(runs));
  vo.progress = [&](int done, int) { progress->done(done); };
  const explore::ValidateSet v = explore::validate_scenario(s, vo);
  progress.reset();
  explore::write_validate_h5(out, v, command_line("validate", args));

  if (a.json) {
    print_json(explore::to_json(v));
  } else {
    std::fputs((explore::format_table(v) + fmt::format("\nresults: {}\n", out)).c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
