// What moving bytes from one device to another costs over the route the topology gives them,
// priced in one place for lower(), the collectives and every placer's prediction:
//
//   bandwidth   the slowest link direction the route crosses, bytes/s (infinite for an empty
//               route: src == dst, or `network: ideal`)
//   latency_s   the sum of its links' latencies
//   seconds(b)  = latency_s + b / bandwidth, the time of b bytes with nothing else on the route
//   hops        the link directions it crosses, in route order
//   binding     those of them exactly as slow as `bandwidth`: the ones that bound its rate, so
//               the ones two such transfers contend on
//
// A link direction as a number (`channel`) is 2 * link for a -> b and 2 * link + 1 for b -> a,
// in the order lower() gives each link's two engine resources.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "hw/topology.hpp"

namespace placesim::hw {

struct RouteCost {
  double bandwidth = std::numeric_limits<double>::infinity();
  double latency_s = 0;
  std::vector<Hop> hops;
  std::vector<Hop> binding;
  double seconds(double bytes) const { return latency_s + bytes / bandwidth; }
};

RouteCost route_cost(const Topology& t, int src, int dst);

// Bytes/s of the link direction a hop crosses.
inline double hop_bandwidth(const Topology& t, const Hop& h) {
  return h.forward ? t.links[h.link].bw_ab : t.links[h.link].bw_ba;
}

// RouteCost::bandwidth of a route alone, without its lists (a table of every pair's cost).
inline double route_bandwidth(const Topology& t, const Route& r) {
  double b = std::numeric_limits<double>::infinity();
  for (const Hop& h : r.hops) b = std::min(b, hop_bandwidth(t, h));
  return b;
}

inline int channel(const Hop& h) { return 2 * h.link + (h.forward ? 0 : 1); }

// Whether two routes cross a common link, in either direction.
bool shares_link(const Route& a, const Route& b);

}  // namespace placesim::hw
