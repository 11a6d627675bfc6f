// The registry of workloads: the generators and importers a scenario's `model:` names, by name
// with a description and the keys each takes, as placers are registered (scheduler/placer.hpp).
// `placesim list workloads` prints it.
//
//   model: {generator: NAME, key: value, ...}   any workload
//   model: {file: graph.json}                   an importer picked by the file: importer_for()
//
// Filled by register_builtin_workloads() on first use (no static constructors).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/generation.hpp"
#include "models/graph.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct WorkloadEntry {
  std::string description;
  std::vector<OptionSpec> options;  // the keys of `model:` besides generator
  // The graph, validated; InputError at the offending key or value of `model`. `seed` is the
  // scenario's, for workloads that draw (a transformer's sampled expert load).
  std::function<Graph(const Yaml& model, std::uint64_t seed)> build;
  // Workloads that can describe a whole generation (models/generation.hpp): the one `model`
  // describes, or none when it describes one graph (then `build` makes it). Empty for the rest.
  std::function<std::optional<Generation>(const Yaml& model, std::uint64_t seed)> generation{};
};

Registry<WorkloadEntry>& workloads();

// Fails at the first key of `model` that is neither `generator` nor one of `options`, so the
// keys a workload accepts are exactly the ones `list workloads` shows.
void allow_workload_keys(const Yaml& model, const std::vector<OptionSpec>& options);

// The importer `{file: X}` without a generator means: onnx for X ending in ".onnx", else
// graph-json.
const char* importer_for(const std::string& file);

void register_builtin_workloads(Registry<WorkloadEntry>& r);
// One per generator file; the importers (graph-json, onnx) in models/importers.cpp.
void register_transformer(Registry<WorkloadEntry>& r);
void register_lstm(Registry<WorkloadEntry>& r);
void register_random_dag(Registry<WorkloadEntry>& r);
void register_importers(Registry<WorkloadEntry>& r);

}  // namespace placesim::models
