#include "hw/topology_yaml.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "hw/device_yaml.hpp"
#include "hw/link_yaml.hpp"

namespace placesim::hw {
namespace {

constexpr std::string_view kPresetPrefix = "preset:";

// "preset:sortinghat-v100" -> "sortinghat-v100"; "dir/t.yaml" -> "t".
std::string name_from_file(const std::string& file) {
  if (file.rfind(kPresetPrefix, 0) == 0) return file.substr(kPresetPrefix.size());
  return std::filesystem::path(file).stem().string();
}

bool parse_network(const Yaml& network) {
  const std::string v = network.str();
  if (v == "ideal") return true;
  if (v == "links") return false;
  network.fail(fmt::format("expected 'ideal' or 'links', got '{}'", v));
}

void check_gpus_reach_host_memory(const Topology& t) {
  if (t.network_ideal || t.host_memories().empty()) return;
  for (int g : t.gpus())
    if (t.host_memory_for(g) < 0)
      throw InputError(t.devices[g].loc, fmt::format("gpu '{}' has no route to any host memory (expected links "
                                                     "joining it, through switches, to a host_memory device)",
                                                     t.devices[g].id));
}

std::string preset_names() {
  std::string s;
  for (const PresetInfo& p : list_presets()) s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

}  // namespace

Topology parse_topology(const Yaml& root, const std::string& default_name) {
  if (!root.is_map()) root.fail("expected a topology map with 'devices' (and usually 'links')");
  root.allow_keys({"name", "description", "source", "network", "templates", "devices", "links", "routes"});
  Topology t;
  t.name = root.str_or("name", default_name);
  t.description = root.str_or("description", "");
  t.source = root.str_or("source", "");
  if (root.get("network").defined()) t.network_ideal = parse_network(root.at("network"));

  const DeviceTemplates templates =
      root.get("templates").defined() ? parse_device_templates(root.at("templates")) : DeviceTemplates{};
  for (const Yaml& item : root.at("devices").items()) {
    Device d = parse_device(item, templates);
    if (const int prev = t.find(d.id); prev >= 0)
      item.at("id").fail(fmt::format("duplicate device id '{}' (first at {})", d.id, t.devices[prev].loc.str()));
    t.devices.push_back(std::move(d));
  }
  if (root.get("links").defined())
    for (const Yaml& item : root.at("links").items()) add_link(item, t);
  const auto routes = root.get("routes").defined() ? parse_routes(root.at("routes"), t)
                                                   : std::map<std::pair<int, int>, Route>{};
  t.finalize(routes);
  check_gpus_reach_host_memory(t);
  return t;
}

Topology load_topology_text(const std::string& text, const std::string& name) {
  return parse_topology(Yaml::load_string(text, name), name_from_file(name));
}

Topology load_topology_file(const std::string& path) {
  return parse_topology(Yaml::load_file(path), name_from_file(path));
}

Topology load_topology(const Yaml& spec) {
  if (spec.is_map()) return parse_topology(spec, "inline");
  if (!spec.is_scalar()) spec.fail("expected a hardware preset name, a topology file path or a topology map");
  const std::string s = spec.str();
  if (is_preset(s)) return load_topology_text(preset_text(s), std::string(kPresetPrefix) + s);
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(s, ec)) return load_topology_file(s);
  const fs::path beside = fs::path(spec.file()).parent_path() / s;
  if (!spec.file().empty() && fs::is_regular_file(beside, ec)) return load_topology_file(beside.string());
  spec.fail(fmt::format("unknown preset or file '{}' (presets: {})", s, preset_names()));
}

}  // namespace placesim::hw
