#include "hw/topology.hpp"

#include <fmt/format.h>

#include "hw/routing.hpp"

namespace placesim::hw {

const char* to_string(DeviceKind k) {
  switch (k) {
    case DeviceKind::Gpu: return "gpu";
    case DeviceKind::Cpu: return "cpu";
    case DeviceKind::HostMemory: return "host_memory";
    case DeviceKind::Switch: return "switch";
    case DeviceKind::Nic: return "nic";
  }
  return "?";
}

int Topology::find(std::string_view id) const {
  if (by_id_.bound_to(devices.data(), devices.size()))
    return static_cast<int>(by_id_.find(id, [&](std::uint32_t i) -> std::string_view { return devices[i].id; }));
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i].id == id) return static_cast<int>(i);
  return -1;
}

int Topology::index(const std::string& id, const SourceLoc& where) const {
  const int i = find(id);
  if (i >= 0) return i;
  std::string known;
  for (const Device& d : devices) known += (known.empty() ? "" : ", ") + d.id;
  throw InputError(where, fmt::format("unknown device '{}' (devices: {})", id, known));
}

static std::vector<int> of_kind(const std::vector<Device>& devices, DeviceKind k) {
  std::vector<int> out;
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i].kind == k) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<int> Topology::gpus() const { return of_kind(devices, DeviceKind::Gpu); }
std::vector<int> Topology::host_memories() const { return of_kind(devices, DeviceKind::HostMemory); }

bool Topology::dispatches() const {
  if (runtime.on_device) return false;
  if (runtime.declared) return true;
  for (const Device& d : devices)
    if (d.dispatch_s > 0) return true;
  return false;
}

std::vector<int> Topology::compute_devices() const {
  std::vector<int> out = gpus();
  const std::vector<int> cpus = of_kind(devices, DeviceKind::Cpu);
  out.insert(out.end(), cpus.begin(), cpus.end());
  return out;
}

int Topology::link_between(int a, int b) const {
  for (size_t i = 0; i < links.size(); ++i)
    if ((links[i].a == a && links[i].b == b) || (links[i].a == b && links[i].b == a)) return static_cast<int>(i);
  return -1;
}

void Topology::check_device(int d) const {
  PLACESIM_ASSERT(d >= 0 && d < static_cast<int>(devices.size()), fmt::format("device index {} out of range", d));
  PLACESIM_ASSERT(connected_.size() == devices.size(), "Topology::finalize() must run before routes are asked for");
}

int Topology::host_memory_for(int device) const {
  check_device(device);
  return host_memory_[device];
}

bool Topology::connected(int src, int dst) const {
  check_device(src);
  check_device(dst);
  return connected_[src][dst];
}

const Route& Topology::route(int src, int dst) const {
  if (!connected(src, dst))
    throw InputError(devices[src].loc, fmt::format("no route from device '{}' to device '{}': no chain of links "
                                                   "joins them",
                                                   devices[src].id, devices[dst].id));
  return routes_[src][dst];
}

// True when r's hops chain from device src to device dst.
bool Topology::joins(const Route& r, int src, int dst) const {
  int at = src;
  for (const Hop& h : r.hops) {
    if (h.link < 0 || h.link >= static_cast<int>(links.size())) return false;
    const Link& l = links[h.link];
    if ((h.forward ? l.a : l.b) != at) return false;
    at = h.forward ? l.b : l.a;
  }
  return at == dst;
}

void Topology::finalize(const std::map<std::pair<int, int>, Route>& explicit_routes) {
  const size_t n = devices.size();
  by_id_.clear();
  by_id_.reserve(n);
  for (size_t i = 0; i < n; ++i)
    by_id_.insert(devices[i].id, static_cast<std::uint32_t>(i), [&](std::uint32_t k) -> std::string_view { return devices[k].id; });
  by_id_.bind(devices.data(), n);
  if (network_ideal) {
    routes_.assign(n, std::vector<Route>(n));
    connected_.assign(n, std::vector<bool>(n, true));
  } else {
    detail::AllRoutes all = detail::best_routes(static_cast<int>(n), links);
    routes_ = std::move(all.routes);
    connected_ = std::move(all.connected);
    for (const auto& [ends, r] : explicit_routes) {
      check_device(ends.first);
      check_device(ends.second);
      PLACESIM_ASSERT(joins(r, ends.first, ends.second), "an explicit route must follow links from src to dst");
      routes_[ends.first][ends.second] = r;
      connected_[ends.first][ends.second] = true;
    }
  }
  const std::vector<int> hosts = host_memories();
  host_memory_.assign(n, -1);
  for (size_t d = 0; d < n; ++d) {
    if (devices[d].kind == DeviceKind::HostMemory) {
      host_memory_[d] = static_cast<int>(d);
      continue;
    }
    for (int h : hosts) {
      if (!connected_[d][h]) continue;
      const int best = host_memory_[d];
      // Strictly nearer only: hosts are visited in index order, so ties keep the lowest index.
      if (best < 0 || routes_[d][h].latency_s < routes_[d][best].latency_s) host_memory_[d] = h;
    }
  }
}

}  // namespace placesim::hw
