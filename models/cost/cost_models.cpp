#include "models/cost/cost_models.hpp"

namespace placesim::models {

Registry<CostModelEntry>& cost_models() {
  static Registry<CostModelEntry> registry = [] {
    Registry<CostModelEntry> r("cost model");
    register_builtin_cost_models(r);
    return r;
  }();
  return registry;
}

void register_builtin_cost_models(Registry<CostModelEntry>& r) {
  register_roofline(r);
  register_linear(r);
}

}  // namespace placesim::models
