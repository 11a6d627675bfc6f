#include "app/explore/model_spec.hpp"

#include "models/cost/cost_models.hpp"
#include "models/workload.hpp"

namespace placesim::explore {

std::string workload_name(const Yaml& spec) {
  if (spec.has("generator")) return spec.at("generator").str();
  if (spec.has("file") && spec.at("file").is_scalar()) return models::importer_for(spec.at("file").str());
  if (spec.has("config")) return "transformer";
  return "";
}

models::Graph build_model(const Yaml& spec, std::uint64_t seed) {
  if (!spec.is_map() || workload_name(spec).empty())
    spec.fail("expected a model: {generator: NAME, ...} (placesim list workloads), {file: graph.json | model.onnx} or "
              "{config: config.json}");
  const SourceLoc at = spec.has("generator") ? spec.at("generator").loc() : spec.loc();
  return models::workloads().get(workload_name(spec), at).build(spec, seed);
}

std::optional<models::Generation> build_generation(const Yaml& spec, std::uint64_t seed) {
  if (!spec.is_map() || workload_name(spec).empty()) return std::nullopt;
  const SourceLoc at = spec.has("generator") ? spec.at("generator").loc() : spec.loc();
  const models::WorkloadEntry& e = models::workloads().get(workload_name(spec), at);
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
