// The registry of cost models, by name with a description and the options each takes, as
// placers are registered (scheduler/placer.hpp). A scenario names one by `cost: NAME` or
// `cost: {name: NAME, option: value, ...}` (app/explore/model_spec.hpp), `placesim simulate` by
// --cost, and `placesim list cost-models` prints them. Filled by register_builtin_cost_models()
// on first use (no static constructors).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/cost/cost_model.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

// The cost model of a scenario without `cost:`, and of `placesim simulate` without --cost.
inline constexpr const char* kDefaultCostModel = "roofline";

struct CostModelEntry {
  std::string description;
  std::vector<OptionSpec> options;
  // `spec` is the `cost:` map, its keys already checked against `options`, or the name alone (a
  // scalar; undefined for the default). `topo` and `graph` are the problem's: a model reads what
  // it needs from the machine (the linear model its calibration) and throws InputError here,
  // not while placers run, when it cannot cost an op of `graph` on a compute device of `topo`.
  std::function<std::shared_ptr<const CostModel>(const Yaml& spec, const hw::Topology& topo, const Graph& graph)>
      make;
};

Registry<CostModelEntry>& cost_models();

void register_builtin_cost_models(Registry<CostModelEntry>& r);
// One per cost model file.
void register_roofline(Registry<CostModelEntry>& r);
void register_linear(Registry<CostModelEntry>& r);

}  // namespace placesim::models
