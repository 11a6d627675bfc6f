// The registry of cost models, by name with a description and the options each takes, as
// placers are registered (scheduler/placer.hpp). A scenario names one by `cost: NAME` or
// `cost: {name: NAME, option: value, ...}` (sim/explore/model_spec.hpp), `placesim simulate` by
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
  // `spec` is the `cost:` map, its keys already checked against `options`; undefined when the
  // model was named alone.
  std::function<std::shared_ptr<const CostModel>(const Yaml& spec)> make;
};

Registry<CostModelEntry>& cost_models();

void register_builtin_cost_models(Registry<CostModelEntry>& r);
// One per cost model file.
void register_roofline(Registry<CostModelEntry>& r);

}  // namespace placesim::models
