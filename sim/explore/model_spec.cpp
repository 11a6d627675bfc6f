#include "sim/explore/model_spec.hpp"

#include "models/cost/cost_models.hpp"
#include "models/workload.hpp"

namespace placesim::explore {

models::Graph build_model(const Yaml& spec, std::uint64_t seed) {
  if (!spec.is_map())
    spec.fail("expected a model: {generator: NAME, ...} (placesim list workloads) or {file: graph.json | model.onnx}");
  if (!spec.has("generator") && spec.has("file"))
    return models::workloads().get(models::importer_for(spec.at("file").str())).build(spec, seed);
  const Yaml name = spec.at("generator");
  return models::workloads().get(name.str(), name.loc()).build(spec, seed);
}

std::optional<models::Generation> build_generation(const Yaml& spec, std::uint64_t seed) {
  if (!spec.is_map() || !spec.has("generator")) return std::nullopt;
  const Yaml name = spec.at("generator");
  const models::WorkloadEntry& e = models::workloads().get(name.str(), name.loc());
  if (!e.generation) return std::nullopt;
  return e.generation(spec, seed);
}

std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec, const hw::Topology& topo,
                                                         const models::Graph& graph) {
  if (!spec.defined()) return models::cost_models().get(models::kDefaultCostModel).make(spec, topo, graph);
  const Yaml name = spec.is_map() ? spec.at("name") : spec;
  const models::CostModelEntry& e = models::cost_models().get(name.str(), name.loc());
  if (spec.is_map()) {
    std::vector<std::string> keys = {"name"};
    for (const OptionSpec& o : e.options) keys.push_back(o.name);
    spec.allow_keys(keys);
  }
  return e.make(spec, topo, graph);
}

}  // namespace placesim::explore
