// placesim simulate: score a given plan (saved by `placesim plan`, possibly edited by hand)
// on a given hardware and graph.
#include <cstdio>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/graph_json.hpp"
#include "scheduler/plan_json.hpp"
#include "scheduler/run_status.hpp"
#include "scheduler/score_plan.hpp"
#include "sim/cli/command.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/trace/chrome_trace.hpp"

namespace placesim::cli {

int cmd_simulate(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("hardware", po::value<std::string>()->required(), "preset name or topology YAML file")(
      "graph", po::value<std::string>()->required(), "graph JSON file")(
      "plan", po::value<std::string>()->required(), "plan JSON file")(
      "weights", po::value<std::string>()->default_value("host"), "where weights start: host or resident")(
      "trace", po::value<std::string>(), "write a Chrome trace (Perfetto) here");
  Parsed a;
  if (!parse_args(commands()[2], args, opts, {}, a)) return 0;

  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(
      hw::load_topology(Yaml(YAML::Node(a.vm["hardware"].as<std::string>()), "--hardware")));
  p.graph = std::make_shared<const models::Graph>(models::load_graph_json(a.vm["graph"].as<std::string>()));
  p.cost = std::make_shared<const models::RooflineCost>();
  try {
    p.weights = scheduler::parse_weights(a.vm["weights"].as<std::string>());
  } catch (const InputError& e) {
    throw InputError(SourceLoc{"--weights"}, e.detail());
  }
  const scheduler::Plan plan = scheduler::load_plan_json(a.vm["plan"].as<std::string>(), *p.graph, *p.topo);
  const scheduler::PlanScore score = scheduler::score_plan(p, plan, a.vm.count("trace") != 0);
  const engine::TaskGraph& tasks = score.lowered.graph;
  if (a.vm.count("trace")) trace::write_chrome_trace_file(a.vm["trace"].as<std::string>(), tasks, score.trace);

  const char* status = scheduler::to_string(score.fits() ? scheduler::RunStatus::Ok : scheduler::RunStatus::Infeasible);
  const std::string message = score.memory_message();
  if (a.json) {
    nlohmann::ordered_json j;
    j["makespan_s"] = score.makespan_s();
    j["tasks"] = tasks.tasks.size();
    j["status"] = status;
    nlohmann::ordered_json m = nlohmann::ordered_json::object();
    for (auto& [dev, bytes] : score.memory.peak) m[dev] = bytes;
    j["peak_mem_bytes"] = m;
    j["message"] = message;
    print_json(j);
  } else {
    std::string text = fmt::format("makespan {:.6f} ms over {} tasks, status {}\n", score.makespan_s() * 1e3,
                                   tasks.tasks.size(), status);
    for (auto& [dev, bytes] : score.memory.peak) text += fmt::format("  peak memory {:<10} {}\n", dev, units::format_bytes(bytes));
    if (!message.empty()) text += message + "\n";
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
