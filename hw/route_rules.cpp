#include "hw/route_rules.hpp"

#include <algorithm>

namespace placesim::hw {
namespace {

int far_end(const Topology& t, const Hop& h) { return h.forward ? t.links[h.link].b : t.links[h.link].a; }

Hop hop_between(const Topology& t, int from, int to) {
  const int l = t.link_between(from, to);
  PLACESIM_ASSERT(l >= 0, "every leaf links to every spine");
  return Hop{l, t.links[l].a == from};
}

void sum_latency(const Topology& t, Route& r) {
  r.latency_s = 0;
  for (const Hop& h : r.hops) r.latency_s += t.links[h.link].latency_s;
}

// Rule 1. True when `r` changed.
bool respine(const Topology& t, Route& r, int src, const std::vector<int>& leaves, const std::vector<int>& spines) {
  bool changed = false;
  int at = src;
  for (size_t i = 0; i + 1 < r.hops.size(); ++i) {
    const int next = far_end(t, r.hops[i]);
    if (std::find(spines.begin(), spines.end(), next) != spines.end()) {
      const int to_leaf = far_end(t, r.hops[i + 1]);
      const auto pos = static_cast<size_t>(std::find(leaves.begin(), leaves.end(), to_leaf) - leaves.begin());
      if (pos < leaves.size() && spines[pos % spines.size()] != next) {
        const int spine = spines[pos % spines.size()];
        r.hops[i] = hop_between(t, at, spine);
        r.hops[i + 1] = hop_between(t, spine, to_leaf);
        changed = true;
      }
    }
    at = far_end(t, r.hops[i]);
  }
  if (changed) sum_latency(t, r);
  return changed;
}

bool crosses_nic(const Topology& t, const Route& r, int src) {
  if (t.devices[src].kind == DeviceKind::Nic) return true;
  return std::any_of(r.hops.begin(), r.hops.end(),
                     [&](const Hop& h) { return t.devices[far_end(t, h)].kind == DeviceKind::Nic; });
}

void append(Route& r, const Route& more) { r.hops.insert(r.hops.end(), more.hops.begin(), more.hops.end()); }

// Rule 2. True when the route from src to dst is staged.
bool stage(const Topology& t, int src, int dst, Route& out) {
  if (!crosses_nic(t, t.route(src, dst), src)) return false;
  const auto staged_at = [&](int d) {
    const int h = t.devices[d].kind == DeviceKind::Gpu ? t.host_memory_for(d) : -1;
    return h >= 0 && !crosses_nic(t, t.route(d, h), d) ? h : -1;
  };
  const int hs = staged_at(src), hd = staged_at(dst);
  if (hs < 0 && hd < 0) return false;
  const int from = hs < 0 ? src : hs, to = hd < 0 ? dst : hd;
  if (!t.connected(from, to)) return false;
  out = Route{};
  if (hs >= 0) append(out, t.route(src, hs));
  if (from != to) append(out, t.route(from, to));
  if (hd >= 0) append(out, t.route(hd, dst));
  sum_latency(t, out);
  return true;
}

}  // namespace

void finalize_with_rules(Topology& t, const std::map<std::pair<int, int>, Route>& listed, const std::vector<int>& leaves,
                         const std::vector<int>& spines) {
  t.finalize(listed);
  if (t.network_ideal) return;
  const int n = static_cast<int>(t.devices.size());
  std::map<std::pair<int, int>, Route> routes = listed;
  const auto free_pair = [&](int s, int d) { return s != d && !listed.count({s, d}) && t.connected(s, d); };
  if (spines.size() > 1) {
    bool changed = false;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        if (!free_pair(s, d)) continue;
        Route r = t.route(s, d);
        if (respine(t, r, s, leaves, spines)) {
          routes[{s, d}] = std::move(r);
          changed = true;
        }
      }
    if (changed) t.finalize(routes);
  }
  if (!t.gpudirect) {
    bool changed = false;
    std::map<std::pair<int, int>, Route> staged = routes;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d) {
        const bool gpu_end = t.devices[s].kind == DeviceKind::Gpu || t.devices[d].kind == DeviceKind::Gpu;
        Route r;
        if (gpu_end && free_pair(s, d) && stage(t, s, d, r)) {
          staged[{s, d}] = std::move(r);
          changed = true;
        }
      }
    if (changed) t.finalize(staged);
  }
}

}  // namespace placesim::hw
