#include "sim/cli/command.hpp"

#include <cstdio>
#include <iostream>

#include "sim/core/error.hpp"
#include "sim/core/log.hpp"

namespace placesim::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"run", "run SCENARIO.yaml [-o X.h5] [--trace DIR] [-j N] [--dry-run]", "run every placer at every sweep point",
       cmd_run},
      {"plan", "plan SCENARIO.yaml --placer NAME [-o plan.json]", "one placer's plan, to inspect or edit", cmd_plan},
      {"simulate", "simulate --plan P.json (--scenario S.yaml | --hardware H --graph G)",
       "score a given plan on a scenario's problem or a given one", cmd_simulate},
      {"compare", "compare RESULTS.h5 [--baseline NAME]", "makespan and speed-up table, geomean per placer",
       cmd_compare},
      {"list", "list placers|presets [NAME]|models|workloads|cost-models|collectives", "what is built in", cmd_list},
      {"validate", "validate SCENARIO.yaml [--backend cpu|cuda] [-o X.h5]",
       "run each plan for real and compare it with the simulation, task by task", cmd_validate},
      {"calibrate", "calibrate [--backend cpu|cuda] -o FILE.yaml", "fit this machine's costs into a hardware file",
       cmd_calibrate},
      {"discover", "discover -o FILE.yaml", "write this machine's topology (hwloc; GPUs with CUDA)", cmd_discover},
  };
  return all;
}

bool parse_args(const Command& cmd, const std::vector<std::string>& args, po::options_description opts,
                const std::vector<std::string>& positional, Parsed& out) {
  opts.add_options()("json", "print one JSON document on stdout instead of tables")(
      "verbose,v", "log progress details to stderr")("help,h", "show this help");
  po::positional_options_description pos;
  for (const std::string& p : positional) pos.add(p.c_str(), 1);
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), out.vm);
    if (out.vm.count("help")) {
      std::cout << "usage: placesim " << cmd.usage << "\n\n" << cmd.summary << "\n\n" << opts << "\n";
      return false;
    }
    po::notify(out.vm);
  } catch (const po::error& e) {
    throw InputError(SourceLoc{"placesim " + cmd.name}, std::string(e.what()) + " (see --help)");
  }
  out.json = out.vm.count("json") != 0;
  if (out.vm.count("verbose")) set_log_level(spdlog::level::info);
  return true;
}

void print_json(const nlohmann::ordered_json& j) {
  const std::string s = j.dump(2) + "\n";
  std::fwrite(s.data(), 1, s.size(), stdout);
}

}  // namespace placesim::cli
