#include "sim/engine/collectives/link_network.hpp"

#include <algorithm>
#include <limits>

#include "sim/core/error.hpp"

namespace placesim::engine {

namespace {

std::string link_name(const char* kind, int a, int b) {
  std::string s = kind;
  s += std::to_string(a);
  if (b >= 0) {
    s += '>';
    s += std::to_string(b);
  }
  return s;
}

}  // namespace

ResourceId LinkNetwork::add_link(std::string name, double bytes_per_s, TimePs latency) {
  const ResourceId r = g_.add_resource(std::move(name), bytes_per_s);
  if (latency_.size() <= static_cast<std::size_t>(r)) latency_.resize(r + 1, 0);
  latency_[r] = latency;
  return r;
}

const std::vector<ResourceId>& LinkNetwork::route(int src, int dst) const {
  if (src == route_src_ && dst == route_dst_) return route_buf_;  // a transfer's uses(), then its latency()
  route_buf_.clear();
  route_(src, dst, route_buf_);
  route_src_ = src;
  route_dst_ = dst;
  return route_buf_;
}

UseList LinkNetwork::uses(int src, int dst, double bytes) const {
  UseList u;
  for (ResourceId r : route(src, dst)) u.push_back({r, bytes});
  return u;
}

TimePs LinkNetwork::latency(int src, int dst) const {
  TimePs t = 0;
  for (ResourceId r : route(src, dst)) t += latency_[r];
  return t;
}

double LinkNetwork::bandwidth(int src, int dst) const {
  double b = std::numeric_limits<double>::infinity();
  for (ResourceId r : route(src, dst)) b = std::min(b, g_.resources[r].capacity);
  return b;
}

LinkNetwork ring_network(TaskGraph& g, int n, double bandwidth, TimePs latency) {
  LinkNetwork net(g);
  std::vector<ResourceId> cw(n), ccw(n);  // i -> i+1, i -> i-1
  for (int i = 0; i < n; ++i) cw[i] = net.add_link(link_name("ring", i, (i + 1) % n), bandwidth, latency);
  for (int i = 0; i < n; ++i) ccw[i] = net.add_link(link_name("ring", i, (i + n - 1) % n), bandwidth, latency);
  net.set_routes([n, cw, ccw](int src, int dst, std::vector<ResourceId>& route) {
    PLACESIM_ASSERT(src >= 0 && src < n && dst >= 0 && dst < n && src != dst, "ring route between bad endpoints");
    const int ahead = (dst - src + n) % n;
    if (ahead <= n - ahead) {
      for (int h = 0; h < ahead; ++h) route.push_back(cw[(src + h) % n]);
    } else {
      for (int h = 0; h < n - ahead; ++h) route.push_back(ccw[(src - h + n) % n]);
    }
  });
  return net;
}

LinkNetwork switch_network(TaskGraph& g, int n, double bandwidth, TimePs latency) {
  LinkNetwork net(g);
  std::vector<ResourceId> up(n), down(n);
  for (int i = 0; i < n; ++i) {
    up[i] = net.add_link(link_name("up", i, -1), bandwidth, latency);
    down[i] = net.add_link(link_name("down", i, -1), bandwidth, latency);
  }
  net.set_routes([n, up, down](int src, int dst, std::vector<ResourceId>& route) {
    PLACESIM_ASSERT(src >= 0 && src < n && dst >= 0 && dst < n && src != dst, "switch route between bad endpoints");
    route.push_back(up[src]);
    route.push_back(down[dst]);
  });
  return net;
}

LinkNetwork mesh_network(TaskGraph& g, int n, const std::function<double(int, int)>& bandwidth,
                         const std::function<TimePs(int, int)>& latency) {
  LinkNetwork net(g);
  std::vector<ResourceId> link(static_cast<std::size_t>(n) * n, -1);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i != j) link[i * n + j] = net.add_link(link_name("mesh", i, j), bandwidth(i, j), latency(i, j));
    }
  }
  net.set_routes([n, link](int src, int dst, std::vector<ResourceId>& route) {
    PLACESIM_ASSERT(src >= 0 && src < n && dst >= 0 && dst < n && src != dst, "mesh route between bad endpoints");
    route.push_back(link[src * n + dst]);
  });
  return net;
}

}  // namespace placesim::engine
