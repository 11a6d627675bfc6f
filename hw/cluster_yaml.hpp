// Clusters in topology files (the schema is in hw/topology_yaml.hpp): `nodes:` replicates node
// templates, naming node k's devices `n<k>.<id>` and setting Device::node to `n<k>`, and
// `fabric:` joins every node's NICs through one switch or a two-level leaf-spine.
//
// A NIC is an ordinary device of its node template, linked to one of the node's PCIe switches,
// so traffic between a GPU and the network crosses the same PCIe links as that GPU's copies
// from host memory. Leaf-spine: NICs fill leaves in node order, `leaf_size` per leaf; every
// leaf links to every spine (how routes pick a spine: hw/route_table.hpp).
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "hw/topology.hpp"
#include "hw/topology_spec.hpp"

namespace placesim::hw {

struct ClusterBuild {
  std::map<std::pair<int, int>, Route> routes;  // node templates' explicit routes, prefixed
  std::vector<int> leaves, spines;              // leaf-spine switches (device indices), in order
};

// Appends the nodes' devices, their links and the fabric to `t`, whose top-level devices are
// already there. Does nothing when the spec has no `nodes:`.
ClusterBuild add_cluster(const TopologySpec& spec, Topology& t);

// Appends `d`, failing at `where` when its id is taken.
void add_device(Topology& t, Device d, const SourceLoc& where);

}  // namespace placesim::hw
