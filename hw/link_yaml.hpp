// Links and explicit routes of a topology file (the schema is in hw/topology_yaml.hpp).
#pragma once

#include <map>
#include <string>
#include <utility>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::hw {

// Reads a link's `bw` (or `bw_ab` and `bw_ba`), `latency`, `count` and `kind` into `l`; the
// caller checks which keys `node` may hold.
void read_link_figures(const Yaml& node, Link& l);

// A link as its file writes it: its ends and its id as written, each with where it was written,
// and its figures (read_link_figures). Read once, it is added under any prefix: a cluster's node
// template's links are read once, not once per node.
struct LinkSpec {
  std::string a, b, id;  // id empty: named `a-b` when added
  SourceLoc a_loc, b_loc, id_loc;
  Link figures;  // bandwidths, latency, count, kind; loc: the link's map
};
LinkSpec read_link(const Yaml& node);

// Appends the link to t.links, between devices already in `t`. `prefix` is prepended to the
// device ids and to an explicit link id ("n3." inside cluster node n3).
void add_link(const LinkSpec& spec, Topology& t, const std::string& prefix = "");

// Appends `l`, naming it `a-b` (then `a-b#2`, ...) when it has no id.
void append_link(Topology& t, Link l);

// Reads `routes:` (a list of device-id lists along links). Each route also serves the reverse
// direction unless that is listed too.
std::map<std::pair<int, int>, Route> parse_routes(const Yaml& routes, const Topology& t, const std::string& prefix = "");

}  // namespace placesim::hw
