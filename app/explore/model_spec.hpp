// The `model:` and `cost:` entries of a scenario: which graph to build and how to cost it, each
// looked up by name in its registry (models/workload.hpp, models/cost/cost_models.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "models/cost/cost_model.hpp"
#include "models/generation.hpp"
#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::explore {

// {generator: NAME, key: value, ...} for any registered workload (placesim list workloads), or
// {file: graph.json} / {file: model.onnx, dims: {name: value}}: the importer the file's name
// picks (models::importer_for).
// {config: config.json, ...} (no generator) is the transformer generator's Hugging Face config.
// `seed` is the scenario's (models::WorkloadEntry::build).
models::Graph build_model(const Yaml& spec, std::uint64_t seed);
// The registered workload a model map names: its generator, the importer its `file` picks, or
// the transformer for a `config`; "" when it names none of these (a map without them).
std::string workload_name(const Yaml& spec);
// The whole generation `spec` describes (a workload's phase: generate), or none when it is one
// graph, which build_model makes.
std::optional<models::Generation> build_generation(const Yaml& spec, std::uint64_t seed);
// NAME, {name: NAME, option: value, ...} (placesim list cost-models), or absent: the default
// (models::kDefaultCostModel), for the problem's machine and graph (models::CostModelEntry::make).
std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec, const hw::Topology& topo,
                                                         const models::Graph& graph);

}  // namespace placesim::explore
