#include "models/workload.hpp"

namespace placesim::models {

Registry<WorkloadEntry>& workloads() {
  static Registry<WorkloadEntry> registry = [] {
    Registry<WorkloadEntry> r("workload");
    register_builtin_workloads(r);
    return r;
  }();
  return registry;
}

void allow_workload_keys(const Yaml& model, const std::vector<OptionSpec>& options) {
  std::vector<std::string> keys = {"generator"};
  for (const OptionSpec& o : options) keys.push_back(o.name);
  model.allow_keys(keys);
}

void register_builtin_workloads(Registry<WorkloadEntry>& r) {
  register_transformer(r);
  register_lstm(r);
  register_random_dag(r);
  register_importers(r);
}

}  // namespace placesim::models
