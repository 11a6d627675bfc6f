// placesim simulate: score a given plan (saved by `placesim plan`, possibly edited by hand) on
// one of two problems:
//   --scenario S.yaml [--point N] [--set k=v] [--dim d=v]: the problem `plan` placed at that
//       point (hardware, graph, weights, collectives fidelity and cost model, all the
//       scenario's), so a plan saved by `plan` scores the makespan `plan` and `run` report;
//   --hardware H --graph G [--weights W] [--cost C]: the pieces given one by one, with flow
//       collectives.
// Giving both forms, or neither, is a usage error.
#include <cstdio>
#include <optional>
#include <fmt/format.h>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_models.hpp"
#include "models/graph_json.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/json.hpp"
#include "scheduler/run_status.hpp"
#include "scheduler/score_plan.hpp"
#include "app/cli/command.hpp"
#include "app/cli/scenario_args.hpp"
#include "sim/core/error.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/units.hpp"
#include "app/explore/model_spec.hpp"
#include "sim/core/log.hpp"
#include "sim/trace/trace_file.hpp"
#include "app/cli/trace_args.hpp"

namespace placesim::cli {

namespace {

const SourceLoc kWhere{"placesim simulate"};

// Options given on the command line (not defaults).
bool given(const po::variables_map& vm, const char* name) { return vm.count(name) && !vm[name].defaulted(); }

scheduler::Problem scenario_problem(const po::variables_map& vm) {
  for (const char* direct : {"hardware", "graph", "weights", "cost"})
    if (given(vm, direct))
      throw InputError(kWhere, fmt::format("--scenario takes hardware, graph, weights and cost model from the "
                                           "scenario: drop --{} (or change the scenario with --set)",
                                           direct));
  const explore::Scenario s = load_scenario_args(vm);
  return explore::build_problem(s, chosen_point(s, vm, kWhere.file));
}

scheduler::Problem direct_problem(const po::variables_map& vm) {
  for (const char* of_scenario : {"point", "set", "dim"})
    if (given(vm, of_scenario)) throw InputError(kWhere, fmt::format("--{} needs --scenario", of_scenario));
  if (!given(vm, "hardware") || !given(vm, "graph"))
    throw InputError(kWhere, "give --scenario S.yaml, or --hardware H and --graph G (see --help)");
  scheduler::Problem p;
  Yaml hardware;
  p.topo = std::make_shared<const hw::Topology>(
      hw::load_topology(Yaml(YAML::Node(vm["hardware"].as<std::string>()), "--hardware"), &hardware));
  leave_to_exit(std::move(hardware));
  p.graph = std::make_shared<const models::Graph>(models::load_graph_json(vm["graph"].as<std::string>()));
  if (const std::string bad = scheduler::check_duration_devices(*p.graph, *p.topo); !bad.empty())
    throw InputError(SourceLoc{vm["graph"].as<std::string>()}, bad);
  p.cost = explore::make_cost_model(Yaml(YAML::Node(vm["cost"].as<std::string>()), "--cost"), *p.topo, *p.graph);
  try {
    p.weights = scheduler::parse_weights(vm["weights"].as<std::string>());
  } catch (const InputError& e) {
    throw InputError(SourceLoc{"--weights"}, e.detail());
  }
  return p;
}

}  // namespace

int cmd_simulate(const std::vector<std::string>& args) {
  po::options_description opts("options");
  opts.add_options()("plan", po::value<std::string>()->required(), "plan JSON file")(
      "scenario", po::value<std::string>(), "score on this scenario's problem (the one `placesim plan` placed)")(
      "point", po::value<int>()->default_value(0), "with --scenario: sweep point index");
  add_override_options(opts);
  opts.add_options()("hardware", po::value<std::string>(), "without --scenario: preset name or topology YAML file")(
      "graph", po::value<std::string>(), "without --scenario: graph JSON file")(
      "weights", po::value<std::string>()->default_value("host"), "without --scenario: where weights start: host or resident")(
      "cost", po::value<std::string>()->default_value(models::kDefaultCostModel),
      "without --scenario: cost model (placesim list cost-models)")(
      "trace", po::value<std::string>(),
      "write a trace here as the run goes, for ui.perfetto.dev: Perfetto's protobuf when FILE ends in .pftrace (a "
      "quarter of the bytes and of the time, for runs with millions of samples), Chrome JSON otherwise (what "
      "`placesim plot` reads)");
  add_trace_filter_option(opts);
  Parsed a;
  if (!parse_args(command_named("simulate"), args, opts, {}, a)) return 0;

  std::optional<TimedStep> step(std::in_place, "reading the machine and the graph");
  scheduler::Problem p = given(a.vm, "scenario") ? scenario_problem(a.vm) : direct_problem(a.vm);
  step.emplace("reading the plan");
  scheduler::Plan plan =
      scheduler::complete_plan(p, scheduler::load_plan_json(a.vm["plan"].as<std::string>(), *p.graph, *p.topo, p.collectives));
  step.reset();
  engine::SimOptions so;
  // The trace is written as the run goes: its usage samples (millions at tens of thousands of
  // flows) are never all in memory, and a filter leaves out what it does not keep unrecorded.
  std::optional<trace::TraceFile> trace_file;
  trace::TraceFilter filter = trace_filter_args(a.vm);
  if (a.vm.count("trace")) {
    so.record_usage = true;
    so.usage_sink = &trace_file.emplace(a.vm["trace"].as<std::string>(), std::move(filter));
  }
  // A large plan takes seconds to minutes to simulate: its tasks finished, on stderr (nothing for
  // a run under a second).
  std::optional<Progress> progress(std::in_place, "tasks simulated", 0);
  so.progress = [&](std::size_t done, std::size_t total) { progress->done(static_cast<int>(done), static_cast<int>(total)); };
  scheduler::PlanScore score = scheduler::score_plan(p, plan, so);
  progress.reset();
  const engine::TaskGraph& tasks = score.lowered.graph;
  if (trace_file) {
    const TimedStep finishing("writing the trace's tasks and memory tracks");
    trace_file->finish(tasks, score.trace);
  }

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
    // A cluster's thousands of devices that held nothing make one line, not thousands.
    std::size_t idle = 0;
    for (auto& [dev, bytes] : score.memory.peak) idle += bytes == 0;
    const bool collapse = idle > 8;
    for (auto& [dev, bytes] : score.memory.peak)
      if (!collapse || bytes != 0) text += fmt::format("  peak memory {:<10} {}\n", dev, units::format_bytes(bytes));
    if (collapse) text += fmt::format("  peak memory 0 B on the {} other devices\n", idle);
    if (!message.empty()) text += message + "\n";
    std::fputs(text.c_str(), stdout);
  }
  leave_to_exit(std::move(score), std::move(plan), std::move(p));
  return 0;
}

}  // namespace placesim::cli
