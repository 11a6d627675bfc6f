// Links and explicit routes of a topology file (the schema is in hw/topology_yaml.hpp).
#pragma once

#include <map>
#include <utility>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// Reads one link between devices already in `t` and appends it to t.links.
void add_link(const Yaml& node, Topology& t);

// Reads `routes:` (a list of device-id lists along links). Each route also serves the reverse
// direction unless that is listed too.
std::map<std::pair<int, int>, Route> parse_routes(const Yaml& routes, const Topology& t);

}  // namespace placesim::hw
