// A scenario's `model:` and `cost:` looked up in their registries: every accepted form, and an
// unknown name located in the scenario with the known ones listed.
#include <gtest/gtest.h>

#include "tests/error_of.hpp"

#include "models/generators/lstm.hpp"
#include "models/graph_json.hpp"
#include "app/explore/model_spec.hpp"

namespace placesim::explore {
namespace {

const std::string kTwoLayer = std::string(PLACESIM_SOURCE_DIR) + "/models/examples/two-layer.json";

Yaml yaml(const std::string& text) { return Yaml::load_string(text, "s.yaml"); }

// The roofline reads neither the machine nor the graph.
std::shared_ptr<const models::CostModel> make_cost_model(const Yaml& spec) {
  return explore::make_cost_model(spec, hw::Topology{}, models::Graph{});
}

using test::error_of;

TEST(ModelSpec, GeneratorsAndImportersBuildWhatTheyBuiltBefore) {
  const Yaml lstm = yaml("{generator: lstm, layers: 3, seq: 4}");
  EXPECT_EQ(build_model(lstm, 1).name, models::generate_lstm(models::parse_lstm_spec(lstm)).name);
  // {file: X} and {generator: graph-json, file: X} are the same import.
  const models::Graph direct = models::load_graph_json(kTwoLayer);
  EXPECT_EQ(build_model(yaml("{file: " + kTwoLayer + "}"), 1).nodes.size(), direct.nodes.size());
  EXPECT_EQ(build_model(yaml("{generator: graph-json, file: " + kTwoLayer + "}"), 1).nodes.size(), direct.nodes.size());
}

TEST(ModelSpec, UnknownGeneratorIsLocatedAndListsTheKnownOnes) {
  EXPECT_EQ(error_of([] { build_model(yaml("{generator: magic, layers: 2}"), 1); }),
            "s.yaml:1:13: unknown workload 'magic' (known: graph-json, lstm, onnx, random-dag, transformer)");
  EXPECT_EQ(error_of([] { build_model(yaml("{file: g.json, dims: {batch: 2}}"), 1); }),
            "s.yaml:1:16: unknown key 'dims' (expected one of: generator, file)");
  EXPECT_EQ(error_of([] { build_model(yaml("[transformer]"), 1); }).rfind("s.yaml:1:1: expected a model", 0), 0u);
}

TEST(ModelSpec, CostModelByNameByMapOrDefault) {
  EXPECT_EQ(make_cost_model(Yaml())->name(), "roofline");
  EXPECT_EQ(make_cost_model(yaml("roofline"))->name(), "roofline");
  EXPECT_EQ(make_cost_model(yaml("{name: roofline}"))->name(), "roofline");
}

TEST(ModelSpec, UnknownCostModelIsLocatedAndListsTheKnownOnes) {
  const Yaml scenario = yaml("name: x\ncost: magic\n");
  EXPECT_EQ(error_of([&] { make_cost_model(scenario.at("cost")); }),
            "s.yaml:2:7: unknown cost model 'magic' (known: linear, roofline)");
  EXPECT_EQ(error_of([] { make_cost_model(yaml("{name: magic}")); }),
            "s.yaml:1:8: unknown cost model 'magic' (known: linear, roofline)");
  EXPECT_EQ(error_of([] { make_cost_model(yaml("{name: roofline, speed: 2}")); }),
            "s.yaml:1:18: unknown key 'speed' (expected one of: name)");
}

}  // namespace
}  // namespace placesim::explore
