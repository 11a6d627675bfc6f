// Best routes between every pair of devices over a topology's links, with Boost.Graph.
//
// "Best" means, in this order:
//   1. fewest hops;
//   2. then lowest total latency, compared in whole picoseconds (each link's latency rounded
//      to the nearest picosecond) so that ties are exact and do not hang on float rounding;
//   3. then, walking back from the destination, the previous device with the lowest index,
//      and among parallel links to it the lowest link index.
// Boost's Dijkstra gives every device's (hops, latency) distance from the source; rule 3 picks
// each device's predecessor in a pass after it, so the result does not depend on the order in
// which the heap pops equal keys. Links are full duplex, so the graph is undirected; a hop's
// direction is recorded in the route.
#pragma once

#include <vector>

#include "hw/topology.hpp"

namespace placesim::hw::detail {

struct AllRoutes {
  std::vector<std::vector<Route>> routes;     // [src][dst]; empty when src == dst or unconnected
  std::vector<std::vector<bool>> connected;   // [src][dst]; true on the diagonal
};

AllRoutes best_routes(int num_devices, const std::vector<Link>& links);

}  // namespace placesim::hw::detail
