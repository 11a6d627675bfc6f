// Topology files (YAML, human units) and the built-in presets (hw/presets/*.yaml, embedded into
// the binary at build time so `placesim` works from any directory).
#pragma once

#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// `spec` is a preset name, a path to a YAML file, or an inline map (in a scenario).
Topology load_topology(const Yaml& spec);
Topology load_topology_file(const std::string& path);
Topology load_topology_text(const std::string& text, const std::string& name);

struct PresetInfo {
  std::string name;
  std::string description;
};
std::vector<PresetInfo> list_presets();
bool is_preset(const std::string& name);
const std::string& preset_text(const std::string& name);  // InputError when unknown

}  // namespace placesim::hw
