// The `model:` and `cost:` entries of a scenario: which graph to build and how to cost it.
#pragma once

#include <memory>

#include "models/cost/cost_model.hpp"
#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::explore {

// {generator: transformer | lstm | random-dag, ...}, {file: graph.json}, or
// {file: model.onnx, dims: {name: value}} (ONNX import, when built with it).
models::Graph build_model(const Yaml& spec);
// Absent or "roofline".
std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec);

}  // namespace placesim::explore
