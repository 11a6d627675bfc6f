// What run, plan and simulate share about the scenario they read: the --set and --dim overrides,
// applied the same way by each (so that `simulate --scenario` rebuilds the problem `plan` placed
// when given the same ones), and the choice of one sweep point by --point, which --dry-run lists.
#pragma once

#include <string>

#include "app/cli/command.hpp"
#include "app/explore/scenario.hpp"

namespace placesim::cli {

void add_override_options(po::options_description& opts);  // --set, --dim
// The scenario file vm["scenario"] names, with the --set overrides in order, then the --dim ones.
explore::Scenario load_scenario_args(const po::variables_map& vm);
// Where a run writes by default: results/<stem>.h5, or with overrides results/<stem>@<them>.h5
// ("quickstart@model.batch=4"; "@set-<hash>" where they are long or hold characters a file name
// should not), so that a run with --set never replaces the scenario's own results.
std::string default_results_path(const po::variables_map& vm, const std::string& stem);
// `run --dry-run`: the sweep points with their indices (the --point of plan and simulate) and
// the placers, as lines or one JSON document on stdout; returns the exit code, 0.
int print_points(const explore::Scenario& s, bool json);
// serve and capacity: the scenario, which must have a request stream (else an error at its top).
explore::Scenario load_stream_scenario(const po::variables_map& vm, const std::string& command);
// A table's title for a point: "name (axis=value, ...)", or the name alone without a sweep.
std::string point_title(const explore::Scenario& s, const explore::Point& p);
// The point vm["point"] names; InputError located at `command` when out of range.
const explore::Point& chosen_point(const explore::Scenario& s, const po::variables_map& vm, const std::string& command);

}  // namespace placesim::cli
