// placesim plan: one placer's plan at one sweep point, as JSON to inspect, edit and re-score
// with `placesim simulate`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>

#include "models/graph_json.hpp"
#include "scheduler/plan/json.hpp"
#include "app/cli/command.hpp"
#include "app/cli/scenario_args.hpp"
#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "app/explore/placer_needs.hpp"
#include "app/explore/report.hpp"
#include "app/explore/runner.hpp"

namespace placesim::cli {

int cmd_plan(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("scenario", po::value<std::string>()->required(), "scenario YAML file")(
      "placer", po::value<std::string>()->required(), "placer label, as the scenario lists it (or any placer name)")(
      "point", po::value<int>()->default_value(0), "sweep point index (run --dry-run lists them)")(
      "output,o", po::value<std::string>(), "write the plan JSON here")(
      "graph-out", po::value<std::string>(), "also write the point's graph JSON here (for simulate)")(
      "minimal", "write only the plan's `devices` (the form to edit by hand: simulate lays out the rest as the "
                 "plan builder does); refused for a plan that splits ops")(
      "dump-model", po::value<std::string>(),
      "MILP placers: write the model(s) they solve to this .lp or .mps file (several: <stem>.<k><ext>)");
  add_override_options(opts);
  Parsed a;
  if (!parse_args(command_named("plan"), args, opts, {"scenario"}, a)) return 0;
  const explore::Scenario s = load_scenario_args(a.vm);
  const explore::Point& point = chosen_point(s, a.vm, "placesim plan");
  const std::string name = a.vm["placer"].as<std::string>();
  // The placer's spec as the scenario gives it: by its label, else by its name when the scenario
  // has that placer once (`--placer scheinfer` for `{name: scheinfer, memory: 20GB}`), else the
  // bare name with its defaults; dump_model added on request.
  Yaml spec_yaml(YAML::Node(name), "--placer");
  std::vector<Yaml> named;
  bool labelled = false;
  for (const Yaml& item : s.root.at("placers").items()) {
    if (scheduler::placer_label(item) == name) spec_yaml = item, labelled = true;
    if ((item.is_map() ? item.at("name").str() : item.str()) == name) named.push_back(item);
  }
  if (!labelled && named.size() == 1) spec_yaml = named.front();
  if (!labelled && named.size() > 1) {
    std::string labels;
    for (const Yaml& item : named) labels += (labels.empty() ? "" : ", ") + scheduler::placer_label(item);
    throw InputError(SourceLoc{"--placer"}, fmt::format("the scenario has placer '{}' {} times ({}): give one label, "
                                                        "quoted", name, named.size(), labels));
  }
  if (a.vm.count("dump-model")) {
    YAML::Node node = spec_yaml.is_map() ? YAML::Clone(spec_yaml.node()) : YAML::Node(YAML::NodeType::Map);
    if (!spec_yaml.is_map()) node["name"] = spec_yaml.str();
    node["dump_model"] = a.vm["dump-model"].as<std::string>();
    spec_yaml = Yaml(node, "--dump-model");
    const auto& declared = scheduler::placers().get(node["name"].as<std::string>(), spec_yaml.loc()).options;
    if (std::none_of(declared.begin(), declared.end(), [](const OptionSpec& o) { return o.name == "dump_model"; }))
      throw InputError(SourceLoc{"placesim plan"},
                       fmt::format("--dump-model: placer '{}' solves no MILP (the MILP placers take it)", name));
  }
  const scheduler::PlacerSpec spec = scheduler::make_placer(spec_yaml);
  explore::check_placer_needs(s, spec, spec_yaml);  // the scenario's placers were checked as it loaded

  const scheduler::Problem prob = explore::build_problem(s, point);
  const explore::SingleRun run = explore::run_placer(prob, spec, "");
  nlohmann::ordered_json plan_doc =
      run.plan ? scheduler::plan_json(*run.plan, *prob.graph, *prob.topo) : nlohmann::ordered_json(nullptr);
  if (a.vm.count("minimal") && run.plan) {
    if (!run.plan->splits.empty())
      throw InputError(SourceLoc{"--minimal"}, fmt::format("placer '{}' splits ops: its plan needs its splits, "
                                                           "collectives and queues (leave out --minimal)",
                                                           name));
    plan_doc = {{"placer", plan_doc["placer"]}, {"devices", plan_doc["devices"]}};
  }
  const std::string plan_text = plan_doc.dump(2) + "\n";
  if (a.vm.count("output")) write_file_atomic(a.vm["output"].as<std::string>(), plan_text);
  if (a.vm.count("graph-out")) write_file_atomic(a.vm["graph-out"].as<std::string>(), models::graph_to_json(*prob.graph));

  const explore::RunResult& r = run.result;
  if (a.json) {
    nlohmann::ordered_json j;
    j["placer"] = r.placer;
    j["predicted_s"] = r.predicted_s ? nlohmann::ordered_json(*r.predicted_s) : nlohmann::ordered_json(nullptr);
    j["makespan_s"] = r.makespan_s ? nlohmann::ordered_json(*r.makespan_s) : nlohmann::ordered_json(nullptr);
    j["status"] = scheduler::to_string(r.status);
    j["gap"] = r.gap && std::isfinite(*r.gap) ? nlohmann::ordered_json(*r.gap) : nlohmann::ordered_json(nullptr);
    j["milp"] = explore::milp_json(r.milp);
    j["message"] = r.message;
    j["choices"] = r.choices;
    j["plan"] = plan_doc;
    print_json(j);
  } else {
    std::string text = fmt::format("{}: status {}", r.placer, scheduler::to_string(r.status));
    if (r.makespan_s) text += fmt::format(", simulated makespan {:.6f} ms", *r.makespan_s * 1e3);
    if (r.predicted_s) text += fmt::format(", predicted {:.6f} ms", *r.predicted_s * 1e3);
    if (!r.message.empty()) text += " (" + r.message + ")";
    text += "\n";
    if (!a.vm.count("output")) text += plan_text;
    std::fputs(text.c_str(), stdout);
  }
  return 0;
}

}  // namespace placesim::cli
