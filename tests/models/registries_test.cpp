// The workload and cost-model registries: every built-in entry is listed, the keys a workload
// declares (what `list workloads` shows) are exactly the ones it accepts, and `{file: X}` picks
// its importer by the file's name.
#include <gtest/gtest.h>

#include "models/cost/cost_models.hpp"
#include "models/workload.hpp"

namespace placesim::models {
namespace {

template <class Entry>
std::vector<std::string> names(const Registry<Entry>& r) {
  std::vector<std::string> out;
  for (auto& [name, _] : r.all()) out.push_back(name);
  return out;
}

TEST(Registries, ListEveryBuiltInWorkloadAndCostModel) {
  EXPECT_EQ(names(workloads()), (std::vector<std::string>{"graph-json", "lstm", "onnx", "random-dag", "transformer"}));
  EXPECT_EQ(names(cost_models()), (std::vector<std::string>{"linear", "roofline"}));
  EXPECT_EQ(cost_models().get(kDefaultCostModel).make(Yaml(), hw::Topology{}, Graph{})->name(), "roofline");
  for (auto& [name, e] : cost_models().all()) EXPECT_FALSE(e.description.empty()) << name;
  for (auto& [name, e] : workloads().all()) EXPECT_FALSE(e.description.empty()) << name;
}

// An unknown key's error lists the accepted ones, which must be generator and the declared options.
TEST(Registries, WorkloadsAcceptExactlyTheirDeclaredKeys) {
  for (auto& [name, e] : workloads().all()) {
    std::string declared = "generator";
    for (const OptionSpec& o : e.options) declared += ", " + o.name;
    const Yaml model = Yaml::load_string("{generator: " + name + ", no_such_key: 1}", "m.yaml");
    try {
      e.build(model, 1);
      ADD_FAILURE() << name << " accepted no_such_key";
    } catch (const InputError& err) {
      EXPECT_EQ(err.detail(), "unknown key 'no_such_key' (expected one of: " + declared + ")") << name;
    }
  }
}

TEST(Registries, UnknownNamesListTheKnownOnes) {
  try {
    workloads().get("magic", SourceLoc{"m.yaml", 1, 13});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "m.yaml:1:13: unknown workload 'magic' (known: graph-json, lstm, onnx, random-dag, transformer)");
  }
  try {
    cost_models().get("magic", SourceLoc{"s.yaml", 4, 7});
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "s.yaml:4:7: unknown cost model 'magic' (known: linear, roofline)");
  }
}

TEST(Registries, FileShorthandPicksTheImporterByName) {
  EXPECT_STREQ(importer_for("dir/model.onnx"), "onnx");
  EXPECT_STREQ(importer_for("graph.json"), "graph-json");
  EXPECT_STREQ(importer_for("graph"), "graph-json");
  EXPECT_STREQ(importer_for("onnx"), "graph-json");
}

}  // namespace
}  // namespace placesim::models
