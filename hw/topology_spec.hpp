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

// The most nodes a cluster may have, checked when the file is read, before anything is built:
// loading grows with the square of the node count (routes between every pair of devices):
// 1,024 two-GPU nodes take 1.6 GB and 3 s, 4,096 ran out of 24 GB after 220 s.
inline constexpr int kMaxClusterNodes = 1024;

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
