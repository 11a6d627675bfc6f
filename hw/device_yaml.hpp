// Devices and device templates of a topology file (the schema is in hw/topology_yaml.hpp).
//
// A device reads each field from its own maps first, then from its template, so any template
// field may be overridden; an error points at whichever map holds the bad value. A device has
// several maps when a file overrides a device of a file it includes (the newest map first). Which
// keys a device may carry depends on its type: `cores` on a GPU is an unknown key, not ignored.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

using DeviceTemplates = std::map<std::string, Yaml>;

DeviceTemplates parse_device_templates(const Yaml& templates);
// `prefix` is prepended to the id ("n3." for a device of cluster node n3).
Device parse_device(const std::vector<Yaml>& layers, const DeviceTemplates& templates, const std::string& prefix = "");

}  // namespace placesim::hw
