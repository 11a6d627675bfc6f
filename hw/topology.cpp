#include "hw/topology.hpp"

#include <fmt/format.h>

#include "hw/route_table.hpp"

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


namespace {

// The index of the item with this id, -1 if none: by `index` while it covers the list as it
// is, else by a scan.
template <class T>
int find_id(const std::vector<T>& list, const NameIndex& index, std::string_view id) {
  if (index.bound_to(list.data(), list.size()))
    return static_cast<int>(index.find(id, [&](std::uint32_t i) -> std::string_view { return list[i].id; }));
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].id == id) return static_cast<int>(i);
  return -1;
}

// Adds `item` to `list` unless its id is in `index` (rebuilt first when it does not cover the
// list as it is); keeps the index bound to the list.
template <class T>
int add_unique(std::vector<T>& list, NameIndex& index, T item) {
  const auto name_of = [&](std::uint32_t i) -> std::string_view { return list[i].id; };
  if (!index.bound_to(list.data(), list.size())) {
    index.clear();
    for (size_t i = 0; i < list.size(); ++i) index.insert(list[i].id, static_cast<std::uint32_t>(i), name_of);
  }
  // The new item's index names nothing yet: insert compares the id only with those already in.
  const std::int64_t prev = index.insert(item.id, static_cast<std::uint32_t>(list.size()), name_of);
  if (prev >= 0) return static_cast<int>(prev);
  list.push_back(std::move(item));
  index.bind(list.data(), list.size());
  return -1;
}

}  // namespace

int Topology::find(std::string_view id) const { return find_id(devices, by_id_, id); }
int Topology::find_link(std::string_view id) const { return find_id(links, link_ids_, id); }
int Topology::add_device(Device d) { return add_unique(devices, by_id_, std::move(d)); }
int Topology::add_link(Link l) { return add_unique(links, link_ids_, std::move(l)); }

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
  PLACESIM_ASSERT(routes_ != nullptr, "Topology::finalize() must run before routes are asked for");
}

int Topology::host_memory_for(int device) const {
  check_device(device);
  return routes_->host_memory_for(device);
}

bool Topology::reaches_host_memory(int device) const {
  check_device(device);
  return routes_->reaches_host_memory(device);
}

bool Topology::connected(int src, int dst) const {
  check_device(src);
  check_device(dst);
  return routes_->connected(src, dst);
}

void Topology::check_connected(int src, int dst) const {
  if (!connected(src, dst))
    throw InputError(devices[src].loc, fmt::format("no route from device '{}' to device '{}': no chain of links "
                                                   "joins them",
                                                   devices[src].id, devices[dst].id));
}

RouteRef Topology::route(int src, int dst) const {
  check_connected(src, dst);
  return routes_->route(src, dst);
}

Route Topology::route_once(int src, int dst) const {
  check_connected(src, dst);
  return routes_->route_once(src, dst);
}

void Topology::finalize(const std::map<std::pair<int, int>, Route>& explicit_routes, const std::vector<int>& leaves,
                        const std::vector<int>& spines) {
  const size_t n = devices.size();
  by_id_.clear();
  by_id_.reserve(n);
  for (size_t i = 0; i < n; ++i)
    by_id_.insert(devices[i].id, static_cast<std::uint32_t>(i), [&](std::uint32_t k) -> std::string_view { return devices[k].id; });
  by_id_.bind(devices.data(), n);
  for (const auto& [ends, r] : explicit_routes) {
    PLACESIM_ASSERT(ends.first >= 0 && ends.first < static_cast<int>(n) && ends.second >= 0 &&
                        ends.second < static_cast<int>(n),
                    "an explicit route joins two devices of the topology");
  }
  routes_ = std::make_shared<const detail::RouteTable>(devices, links, explicit_routes,
                                                       detail::RouteRules{leaves, spines, gpudirect}, network_ideal);
}

}  // namespace placesim::hw
