// The file importers as workloads: graph JSON (models/graph_json.hpp) and ONNX (models/onnx,
// when built with it). `onnx` is registered either way, so that a build without it says so
// where the scenario names the file.
#include <cstdint>
#include <fstream>
#include <map>
#include <fmt/format.h>

#include "models/graph_json.hpp"
#include "models/workload.hpp"
#ifdef PLACESIM_WITH_ONNX
#include "models/onnx/onnx_import.hpp"
#endif

namespace placesim::models {

namespace {

// The model file's path; a file that cannot be read is an error at the scenario's `file:` key,
// where the mistake is (the loader itself knows only the path).
std::string readable_file(const Yaml& file) {
  const std::string path = file.str();
  if (!std::ifstream(path)) file.fail(fmt::format("cannot open '{}' (no such file, or not readable)", path));
  return path;
}

const std::vector<OptionSpec>& graph_json_options() {
  static const std::vector<OptionSpec> options = {{"file", "", "graph JSON file (models/graph_json.hpp)"}};
  return options;
}

const std::vector<OptionSpec>& onnx_options() {
  static const std::vector<OptionSpec> options = {
      {"file", "", "ONNX model file"},
      {"dims", "{}", "values of the dynamic dimensions: {name: value} (--dim name=value sets one)"}};
  return options;
}

// {file: model.onnx, dims: {batch: 4}}: `dims` gives the dynamic dimensions their values
// (`--dim batch=4` on the command line sets model.dims.batch).
Graph load_onnx(const Yaml& model) {
  allow_workload_keys(model, onnx_options());
  std::map<std::string, std::int64_t> dims;
  if (model.has("dims")) {
    const Yaml d = model.at("dims");
    if (!d.is_map()) d.fail("expected dims: {name: value, ...}");
    for (const auto& [name, value] : d.entries()) {
      const auto v = value.integer();
      if (v < 1) value.fail(fmt::format("expected a positive dimension, got '{}'", value.str()));
      dims[name] = v;
    }
  }
#ifdef PLACESIM_WITH_ONNX
  return import_onnx(readable_file(model.at("file")), dims).graph;
#else
  model.at("file").fail("placesim was built without ONNX import (PLACESIM_WITH_ONNX=OFF; install libonnx-dev and rebuild)");
#endif
}

}  // namespace

const char* importer_for(const std::string& file) {
  const bool onnx = file.size() >= 5 && file.compare(file.size() - 5, 5, ".onnx") == 0;
  return onnx ? "onnx" : "graph-json";
}

void register_importers(Registry<WorkloadEntry>& r) {
  r.add("graph-json", {"a graph from a JSON file: ops with their work or per-device times, parameters, edges",
                       graph_json_options(), [](const Yaml& model, std::uint64_t) {
                         allow_workload_keys(model, graph_json_options());
                         return load_graph_json(readable_file(model.at("file")));
                       }});
  r.add("onnx", {"an ONNX model, shapes inferred, each node costed by its op type's formula", onnx_options(),
                 [](const Yaml& model, std::uint64_t) { return load_onnx(model); }});
}

}  // namespace placesim::models
