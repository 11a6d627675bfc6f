// Devices and device templates of a topology file (the schema is in hw/topology_yaml.hpp).
//
// A device reads each field from its own map first, then from its template, so any template
// field may be overridden; an error points at whichever of the two holds the bad value. Which
// keys a device may carry depends on its type: `cores` on a GPU is an unknown key, not ignored.
#pragma once

#include <map>
#include <string>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

using DeviceTemplates = std::map<std::string, Yaml>;

DeviceTemplates parse_device_templates(const Yaml& templates);
Device parse_device(const Yaml& node, const DeviceTemplates& templates);

}  // namespace placesim::hw
