// A Network over link directions the caller adds to the TaskGraph as resources (capacity =
// bytes/s), with a route function naming the links from one endpoint to another: a route's
// latency is the sum of its links', its bandwidth their minimum. Builders for a ring, a
// single switch and a full mesh serve tests, benchmarks and hardware-free sweeps.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/engine/collectives/collective.hpp"

namespace placesim::engine {

class LinkNetwork final : public Network {
 public:
  // Appends the links from src to dst to `route` (which the network clears and reuses: no
  // allocation per transfer when a collective lowers into millions).
  using RouteFn = std::function<void(int src, int dst, std::vector<ResourceId>& route)>;

  explicit LinkNetwork(TaskGraph& g) : g_(g) {}
  // One direction of a link; returns its resource.
  ResourceId add_link(std::string name, double bytes_per_s, TimePs latency);
  void set_routes(RouteFn route) {
    route_ = std::move(route);
    route_src_ = route_dst_ = -1;
  }

  UseList uses(int src, int dst, double bytes) const override;
  TimePs latency(int src, int dst) const override;
  double bandwidth(int src, int dst) const override;
  double capacity(ResourceId r) const override { return g_.resources[r].capacity; }

 private:
  TaskGraph& g_;
  const std::vector<ResourceId>& route(int src, int dst) const;

  std::vector<TimePs> latency_;  // indexed by ResourceId (0 for resources not added here)
  RouteFn route_;
  mutable std::vector<ResourceId> route_buf_;  // route()'s last answer (a Network is not thread-safe)
  mutable int route_src_ = -1, route_dst_ = -1;  // the endpoints of that answer
};

// n endpoints on a bidirectional ring of links (B, L per direction); a route goes the shorter
// way round (clockwise on a tie): i -> i+1 is one link, latency L.
LinkNetwork ring_network(TaskGraph& g, int n, double bandwidth, TimePs latency);
// n endpoints on one non-blocking switch: endpoint i has an up and a down link (B, L each);
// i -> j crosses up_i and down_j, latency 2L.
LinkNetwork switch_network(TaskGraph& g, int n, double bandwidth, TimePs latency);
// A link per ordered pair with its own bandwidth and latency.
LinkNetwork mesh_network(TaskGraph& g, int n, const std::function<double(int, int)>& bandwidth,
                         const std::function<TimePs(int, int)>& latency);

}  // namespace placesim::engine
