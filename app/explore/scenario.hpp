// Scenarios: the unit a user sweeps (docs/scenarios.md).
//
//   name: quickstart
//   hardware: sortinghat-v100          # preset name, path (relative to this file), or inline map
//   model: {generator: transformer, arch: gpt2-large, batch: 1, seq: 128, phase: prefill}
//                                      # any workload (placesim list workloads), or {file: graph.json};
//                                      # phase: generate, output: N: a whole generation (runner.hpp)
//   weights: host                      # or resident
//   cost: roofline                     # the default; placesim list cost-models, e.g.
//                                      # {name: linear, fallback: roofline, threads: 8}
//   collectives: {fidelity: flow}      # or analytic, ideal: how plans' collectives are lowered;
//                                      # volume: per-linear: every TP linear's collectives carry b h
//   placers: [single-device, {name: round-robin, unit: op}, critical-path]
//   baseline: single-device
//   sweep:                             # cartesian product, first axis outermost
//     model.arch: [gpt2-large, gpt2-xl]
//     model.[batch,seq]: [[1, 32], [4, 128]]     # one axis setting several keys
//     zip: {model.seq: [32, 64], model.batch: [1, 2]}  # axes advanced together
//   seed: 1
//
// `--set key=value` overrides apply before the sweep is expanded; the value is YAML. A --set on a
// swept key (an axis's label or key) replaces that axis: the key takes the one value at every
// point. `--set sweep.AXIS=[...]` gives an axis other values.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "app/explore/topology_cache.hpp"
#include "models/generation.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/problem.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::explore {

// One sweep point: the value of every axis, and the scenario with those values applied.
struct Point {
  int index = 0;
  std::vector<std::pair<std::string, std::string>> values;  // axis label -> value (YAML text)
  YAML::Node root;
  // root's --set values, which errors name as such, and the nodes the point made in place of
  // the scenario's (tree_edit.hpp), which errors locate as those
  std::shared_ptr<const Yaml::Origins> origins;
};

struct Scenario {
  std::string name;
  std::string file;          // path it was read from
  std::vector<std::string> overrides;  // --set key=value, in order
  std::string text;          // the scenario as run (after --set), as YAML text
  std::string hardware_text; // the hardware description of the unswept scenario
  Yaml root;                 // after --set
  std::vector<scheduler::PlacerSpec> placers;
  std::string baseline;      // a label of one of `placers`, or ""
  std::uint64_t seed = 1;
  std::vector<std::string> axes;
  std::vector<Point> points;
  // The machines its points run on, each loaded once (build_problem); copies of the scenario
  // share them.
  std::shared_ptr<TopologyCache> topologies = std::make_shared<TopologyCache>();
};

// Reads, applies overrides ("key=value"), checks keys, placers and the sweep, expands points.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides = {});

// Point p's scenario, read with locations: the scenario file's, and "--set key=value" in a value
// --set gave.
Yaml point_yaml(const Scenario& s, const Point& p);

// Builds the problem of one point (topology, graph, cost model, weights): InputError on bad
// hardware or model descriptions, with their locations.
scheduler::Problem build_problem(const Scenario& s, const Point& p);
// The same with `graph` in place of the point's model.
scheduler::Problem build_problem(const Scenario& s, const Point& p, models::Graph graph);
// The whole generation point p's model describes (models/generation.hpp), or none when it is
// one graph; InputError at the model's offending key.
std::optional<models::Generation> point_generation(const Scenario& s, const Point& p);

}  // namespace placesim::explore
