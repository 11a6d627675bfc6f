// A topology file with its `include:` and `generator:` resolved (the schema is in
// hw/topology_yaml.hpp): the pieces the loader builds a Topology from, each still a located
// YAML node, so an error in an included preset names that preset's line and column.
//
// Layering: an included file is read first; the including file then adds to it. Scalars
// (description, source, network, memory, gpudirect, calibration, fabric, runtime, nodes) and named templates
// are replaced by the newer file; devices, links and routes are appended, except that a device
// whose id names an included device overrides that device's fields. `name` is never inherited:
// it comes from the outermost file (or its file name).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "hw/device_yaml.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// The most nodes a cluster may have, checked when the file is read, before anything is built.
// Loading is linear in the devices (routes are computed when asked for, hw/route_table.hpp):
// 2,048 DGX A100 nodes (16,384 GPUs) load and simulate a two-op graph in 2 s and 0.54 GB,
// 16,384 of them (131,072 GPUs) in 18 s and 4.3 GB (bench/bench_loaders.cpp).
inline constexpr int kMaxClusterNodes = 16384;
inline constexpr const char* kMaxClusterNodesWhy = "16,384 DGX nodes take 18 s and 4.3 GB to build";

// One entry of `nodes:`: `count` copies of node template `tmpl`.
struct NodeGroup {
  std::string tmpl;
  SourceLoc tmpl_loc;   // where the template is named
  int count = 1;
};

struct TopologySpec {
  std::string name;                         // "" when the outermost file has no `name:`
  Yaml description, source, network, memory, gpudirect, calibration, fabric, runtime;
  DeviceTemplates templates;
  std::map<std::string, Yaml> node_templates;
  std::vector<std::vector<Yaml>> devices;   // per device, its maps newest first
  std::vector<Yaml> links;
  std::vector<Yaml> routes;                 // each a `routes:` list, oldest file first
  bool has_nodes = false;
  SourceLoc nodes_loc;                      // where `nodes:` (or the generator) is
  std::vector<NodeGroup> nodes;
};

// Reads `root` (a topology map) and, recursively, what it includes.
TopologySpec read_spec(const Yaml& root);

// The YAML map a hardware spec names: a preset name, a file path relative to `dir` (empty: the
// working directory; a scenario has made its own paths relative to that already) or an inline
// map. InputError at `spec` when it is none of these.
Yaml resolve_hardware(const Yaml& spec, const std::filesystem::path& dir = {});

}  // namespace placesim::hw
