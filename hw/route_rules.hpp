// The two routing rules of cluster files, applied after the computed routes (hw/routing.hpp)
// to every (src, dst) pair that the file does not route explicitly:
//
//  1. Leaf-spine, destination-mod-k: a route that crosses the spine layer (leaf -> spine ->
//     leaf) goes through spine (i mod S), where i is the position of the destination's leaf
//     among the leaves and S the number of spines. Shortest paths alone would send every
//     cross-leaf flow through spine0; this spreads them deterministically, as InfiniBand's
//     fat-tree routing does, with the same hop count.
//  2. `gpudirect: false`: a route that starts at a GPU and crosses a NIC (the GPU's own NIC
//     included) is staged through that GPU's host memory: route(gpu, host) then route(host,
//     dst); likewise a route that ends at a GPU after crossing a NIC arrives by route(src,
//     host of the GPU) then route(host, gpu). The staged route crosses the PCIe links to host
//     memory twice, as a bounce buffer does. With GPUDirect RDMA (the default) routes are left
//     as computed.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "hw/topology.hpp"

namespace placesim::hw {

// Topology::finalize with `listed` routes, then the rules; finalizes again with what changed.
void finalize_with_rules(Topology& t, const std::map<std::pair<int, int>, Route>& listed, const std::vector<int>& leaves,
                         const std::vector<int>& spines);

}  // namespace placesim::hw
