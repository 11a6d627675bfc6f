// Best routes from one device over a topology's links.
//
// "Best" means, in this order:
//   1. fewest hops;
//   2. then lowest total latency, compared in whole picoseconds (each link's latency rounded
//      to the nearest picosecond) so that ties are exact and do not hang on float rounding;
//   3. then, walking back from the destination, the previous device with the lowest index,
//      and among parallel links to it the lowest link index.
// A breadth-first pass gives every device's (hops, latency) distance from the source; rule 3
// picks each device's predecessor in a pass after it, so the result does not depend on the
// order in which links are listed. Links are full duplex, so the graph is undirected; a hop's
// direction is recorded in the route.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "hw/topology.hpp"

namespace placesim::hw::detail {

class RouteGraph {
 public:
  RouteGraph(int num_devices, const std::vector<Link>& links);
  ~RouteGraph();
  RouteGraph(const RouteGraph&) = delete;
  RouteGraph& operator=(const RouteGraph&) = delete;

  // Each device's link towards src on its best route from src (rule 3): the tree of every best
  // route from src. -1 for src itself and for devices src does not reach.
  std::vector<int> tree(int src) const;
  // When v has exactly one link: (the device at its other end, the link); else (-1, -1).
  std::pair<int, int> only_link(int v) const;
  // The route src -> dst along src's tree (dst reached, dst != src); latency summed from src on.
  Route walk(const std::vector<int>& tree, int src, int dst) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace placesim::hw::detail
