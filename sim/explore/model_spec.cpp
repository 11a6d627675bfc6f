#include "sim/explore/model_spec.hpp"

#include <fmt/format.h>

#include "models/generators/lstm.hpp"
#include "models/generators/random_dag.hpp"
#include "models/generators/transformer.hpp"
#include "models/graph_json.hpp"
#ifdef PLACESIM_WITH_ONNX
#include "models/onnx/onnx_import.hpp"
#endif

namespace placesim::explore {

namespace {

// {file: model.onnx, dims: {batch: 4}}: `dims` gives the dynamic dimensions their values
// (`--dim batch=4` on the command line sets model.dims.batch).
models::Graph load_onnx(const Yaml& spec) {
  spec.allow_keys({"file", "dims"});
  std::map<std::string, std::int64_t> dims;
  if (spec.has("dims")) {
    const Yaml d = spec.at("dims");
    if (!d.is_map()) d.fail("expected dims: {name: value, ...}");
    for (const auto& [name, value] : d.entries()) {
      const auto v = value.integer();
      if (v < 1) value.fail(fmt::format("expected a positive dimension, got '{}'", value.str()));
      dims[name] = v;
    }
  }
#ifdef PLACESIM_WITH_ONNX
  return models::import_onnx(spec.at("file").str(), dims).graph;
#else
  spec.at("file").fail("placesim was built without ONNX import (PLACESIM_WITH_ONNX=OFF; install libonnx-dev and rebuild)");
#endif
}

}  // namespace

models::Graph build_model(const Yaml& spec) {
  if (!spec.is_map())
    spec.fail("expected a model: {generator: transformer | lstm | random-dag, ...} or {file: graph.json | model.onnx}");
  if (spec.has("file")) {
    const std::string file = spec.at("file").str();
    if (file.size() >= 5 && file.compare(file.size() - 5, 5, ".onnx") == 0) return load_onnx(spec);
    spec.allow_keys({"file"});
    return models::load_graph_json(file);
  }
  const Yaml gen = spec.at("generator");
  if (gen.str() == "transformer") return models::generate_transformer(models::parse_transformer_spec(spec));
  if (gen.str() == "lstm") return models::generate_lstm(models::parse_lstm_spec(spec));
  if (gen.str() == "random-dag") return models::generate_random_dag(models::parse_random_dag_spec(spec));
  gen.fail(fmt::format("unknown generator '{}' (known: transformer, lstm, random-dag)", gen.str()));
}

std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec) {
  if (spec.defined() && spec.str() != "roofline")
    spec.fail(fmt::format("unknown cost model '{}' (known: roofline)", spec.str()));
  return std::make_shared<const models::RooflineCost>();
}

}  // namespace placesim::explore
