#include "sim/explore/model_spec.hpp"

#include <fmt/format.h>

#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"

namespace placesim::explore {

models::Graph build_model(const Yaml& spec) {
  if (!spec.is_map()) spec.fail("expected a model: {generator: transformer, ...} or {file: graph.json}");
  if (spec.has("file")) {
    spec.allow_keys({"file"});
    return models::load_graph_json(spec.at("file").str());
  }
  const Yaml gen = spec.at("generator");
  if (gen.str() == "transformer") return models::generate_transformer(models::parse_transformer_spec(spec));
  gen.fail(fmt::format("unknown generator '{}' (known: transformer)", gen.str()));
}

std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec) {
  if (spec.defined() && spec.str() != "roofline")
    spec.fail(fmt::format("unknown cost model '{}' (known: roofline)", spec.str()));
  return std::make_shared<const models::RooflineCost>();
}

}  // namespace placesim::explore
