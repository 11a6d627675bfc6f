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
// Devices that are a template and an id alone (one map, `{id: h7, template: host}`), by template:
// every field is the template's, so it is read once and copied for each such device with its id
// and location (a 512-host file's hosts read field by field were a fifth of reading the file).
using TemplateDevices = std::map<std::string, Device, std::less<>>;

DeviceTemplates parse_device_templates(const Yaml& templates);
// `prefix` is prepended to the id ("n3." for a device of cluster node n3). `made`, when given,
// keeps the devices made from a template alone for the next calls.
Device parse_device(const std::vector<Yaml>& layers, const DeviceTemplates& templates, const std::string& prefix = "",
                    TemplateDevices* made = nullptr);

}  // namespace placesim::hw
