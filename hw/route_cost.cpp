#include "hw/route_cost.hpp"

#include <algorithm>

namespace placesim::hw {

RouteCost route_cost(const Topology& t, int src, int dst) {
  RouteCost c;
  if (t.network_ideal) return c;
  const RouteRef route = t.route(src, dst);
  const Route& r = *route;
  c.latency_s = r.latency_s;
  c.hops = r.hops;
  c.bandwidth = route_bandwidth(t, r);
  for (const Hop& h : r.hops)
    if (hop_bandwidth(t, h) == c.bandwidth) c.binding.push_back(h);
  return c;
}

bool shares_link(const Route& a, const Route& b) {
  for (const Hop& x : a.hops)
    for (const Hop& y : b.hops)
      if (x.link == y.link) return true;
  return false;
}

}  // namespace placesim::hw
