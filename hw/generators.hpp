// Topology generators: a hardware spec such as `{generator: asymgroup, nodes: [2, 1, 1, 2]}`
// stands for a preset that holds the node templates and fabric (with their citations) plus a
// `nodes:` list built from the generator's arguments. The rest of the spec layers on top as
// with `include:` (hw/topology_spec.hpp).
//
//   asymgroup   base preset asymgroup-s0 (AsymGroup's simulated A100 cluster); `nodes` lists
//               each node's GPU count, 1 or 2, in node order: [2, 1] is n0 with two GPUs
//               (template a100x2) and n1 with one (a100x1). `nodes: {count: N, gpus: G}`: N nodes
//               of G GPUs each (a sweep over `hardware.nodes.count`).
#pragma once

#include <string>
#include <vector>

#include "hw/topology_spec.hpp"

namespace placesim::hw {

struct Generated {
  std::string base_preset;
  std::vector<NodeGroup> nodes;
};

// `generator` is the generator's name; `root` the map holding it (for its arguments).
Generated run_generator(const Yaml& generator, const Yaml& root);

}  // namespace placesim::hw
