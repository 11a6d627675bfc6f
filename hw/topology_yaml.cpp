#include "hw/topology_yaml.hpp"

#include <filesystem>
#include <limits>
#include <fmt/format.h>

#include "hw/cluster_yaml.hpp"
#include "hw/device_yaml.hpp"
#include "hw/link_yaml.hpp"
#include "hw/topology_spec.hpp"

namespace placesim::hw {
namespace {

constexpr std::string_view kPresetPrefix = "preset:";

// "preset:sortinghat-v100" -> "sortinghat-v100"; "dir/t.yaml" -> "t".
std::string name_from_file(const std::string& file) {
  if (file.rfind(kPresetPrefix, 0) == 0) return file.substr(kPresetPrefix.size());
  return std::filesystem::path(file).stem().string();
}

// `network: links | ideal | uncontended` (docs/formats.md).
void parse_network(const Yaml& network, Topology& t) {
  const std::string v = network.str();
  t.network_ideal = v == "ideal";
  t.network_uncontended = v == "uncontended";
  if (v != "links" && !t.network_ideal && !t.network_uncontended)
    network.fail(fmt::format("expected 'links' (transfers share the links they cross), 'uncontended' (each "
                             "transfer alone on its route) or 'ideal' (transfers are free), got '{}'", v));
}

// `memory: limited | unlimited` (docs/formats.md).
bool parse_memory(const Yaml& memory) {
  const std::string v = memory.str();
  if (v != "limited" && v != "unlimited")
    memory.fail(fmt::format("expected 'limited' (each device holds its memory) or 'unlimited' (no device runs "
                            "out), got '{}'", v));
  return v == "unlimited";
}

// `runtime: {dispatch_threads: N}` (docs/formats.md): the host threads that dispatch ops.
Runtime parse_runtime(const Yaml& v) {
  if (!v.is_map()) v.fail("expected a runtime map such as {dispatch_threads: 1}");
  v.allow_keys({"dispatch_threads", "dispatch_on"});
  Runtime r;
  r.declared = true;
  if (const Yaml n = v.get("dispatch_threads"); n.defined()) {
    const std::int64_t k = n.integer();
    if (k < 1 || k > 4096)
      n.fail(fmt::format("dispatch_threads must be 1 .. 4096 (host threads that dispatch ops), got {}", k));
    r.dispatch_threads = static_cast<int>(k);
  }
  if (const Yaml on = v.get("dispatch_on"); on.defined()) {
    if (on.str() != "host" && on.str() != "device")
      on.fail(fmt::format("dispatch_on must be host (a host thread dispatches each op) or device (the op's device "
                          "pays it, as models that profile per-op times assume), got '{}'", on.str()));
    r.on_device = on.str() == "device";
  }
  return r;
}

void check_gpus_reach_host_memory(const Topology& t) {
  if (t.network_ideal || t.host_memories().empty()) return;
  for (int g : t.gpus())
    if (!t.reaches_host_memory(g))
      throw InputError(t.devices[g].loc, fmt::format("gpu '{}' has no route to any host memory (expected links "
                                                     "joining it, through switches, to a host_memory device)",
                                                     t.devices[g].id));
}

}  // namespace

Topology parse_topology(const Yaml& root, const std::string& default_name) {
  const TopologySpec spec = read_spec(root);
  Topology t;
  t.name = spec.name.empty() ? default_name : spec.name;
  if (spec.description.defined()) t.description = spec.description.str();
  if (spec.source.defined()) t.source = spec.source.str();
  if (spec.network.defined()) parse_network(spec.network, t);
  if (spec.memory.defined()) t.memory_unlimited = parse_memory(spec.memory);
  if (spec.gpudirect.defined()) t.gpudirect = spec.gpudirect.boolean();
  if (spec.calibration.defined()) {
    if (!spec.calibration.is_map()) spec.calibration.fail("expected a calibration map (as `placesim calibrate` writes)");
    t.calibration = std::make_shared<const Yaml>(spec.calibration);
  }
  if (spec.runtime.defined()) t.runtime = parse_runtime(spec.runtime);

  TemplateDevices made;
  for (const std::vector<Yaml>& layers : spec.devices) {
    Device d = parse_device(layers, spec.templates, "", &made);
    const Yaml id = layers.front().get("id");
    add_device(t, std::move(d), id.defined() ? id.loc() : layers.front().loc());
  }
  const ClusterBuild cluster = add_cluster(spec, t);
  if (t.devices.empty()) root.fail("expected at least one device: a 'devices:' list or cluster 'nodes:'");
  for (const Yaml& item : spec.links) add_link(read_link(item), t);
  if (t.memory_unlimited)
    for (Device& d : t.devices)
      if (d.kind == DeviceKind::Gpu || d.kind == DeviceKind::HostMemory) d.memory = std::numeric_limits<double>::infinity();
  std::map<std::pair<int, int>, Route> routes = cluster.routes;
  for (const Yaml& list : spec.routes)
    for (auto& [ends, r] : parse_routes(list, t)) routes.insert_or_assign(ends, r);
  t.finalize(routes, cluster.leaves, cluster.spines);
  check_gpus_reach_host_memory(t);
  return t;
}

Topology load_topology_text(const std::string& text, const std::string& name) {
  return parse_topology(Yaml::load_string(text, name), name_from_file(name));
}

Topology load_topology_file(const std::string& path) {
  return parse_topology(Yaml::load_file(path), name_from_file(path));
}

Topology load_topology(const Yaml& spec, Yaml* read) {
  const Yaml root = resolve_hardware(spec);
  if (read != nullptr) *read = root;
  return parse_topology(root, spec.is_map() ? "inline" : name_from_file(root.file()));
}

}  // namespace placesim::hw
