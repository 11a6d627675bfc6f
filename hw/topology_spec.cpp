#include "hw/topology_spec.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <fmt/format.h>

#include "hw/generators.hpp"
#include "hw/topology_yaml.hpp"

namespace placesim::hw {

namespace fs = std::filesystem;

namespace {

std::string preset_names() {
  std::string s;
  for (const PresetInfo& p : list_presets()) s += (s.empty() ? "" : ", ") + p.name;
  return s;
}

std::vector<NodeGroup> read_nodes(const Yaml& nodes) {
  if (!nodes.is_seq() || nodes.node().size() == 0)
    nodes.fail("a cluster with zero nodes: expected a list such as [{template: dgx, count: 4}]");
  std::vector<NodeGroup> out;
  long long total = 0;
  for (const Yaml& item : nodes.items()) {
    if (!item.is_map()) item.fail("expected a node group such as {template: dgx, count: 4}");
    item.allow_keys({"template", "count"});
    const Yaml tmpl = item.at("template");
    NodeGroup g{tmpl.str(), tmpl.loc(), 1};
    if (const Yaml c = item.get("count"); c.defined()) {
      const std::int64_t n = c.integer();
      if (n < 1 || n > kMaxClusterNodes)
        c.fail(fmt::format("expected 1 to {} nodes, got '{}' ({})", kMaxClusterNodes, c.str(), kMaxClusterNodesWhy));
      g.count = static_cast<int>(n);
    }
    total += g.count;
    if (total > kMaxClusterNodes)
      item.fail(fmt::format("the cluster reaches {} nodes here, more than the {} allowed ({})", total,
                            kMaxClusterNodes, kMaxClusterNodesWhy));
    out.push_back(std::move(g));
  }
  return out;
}

// Adds `root`'s own keys on top of `spec` (which holds what `root` includes).
void layer(TopologySpec& spec, const Yaml& root, bool nodes_from_generator) {
  static const std::pair<const char*, Yaml TopologySpec::*> kReplaced[] = {
      {"description", &TopologySpec::description}, {"source", &TopologySpec::source},
      {"network", &TopologySpec::network},         {"memory", &TopologySpec::memory},
      {"gpudirect", &TopologySpec::gpudirect},
      {"calibration", &TopologySpec::calibration}, {"fabric", &TopologySpec::fabric},
      {"runtime", &TopologySpec::runtime}};
  for (const auto& [key, member] : kReplaced)
    if (const Yaml v = root.get(key); v.defined()) spec.*member = v;
  if (const Yaml v = root.get("templates"); v.defined())
    for (auto& [name, t] : parse_device_templates(v)) spec.templates.insert_or_assign(name, t);
  if (const Yaml v = root.get("node_templates"); v.defined()) {
    if (!v.is_map()) v.fail("expected a map of node templates such as {dgx: {devices: [...], links: [...]}}");
    for (auto& [name, t] : v.entries()) spec.node_templates.insert_or_assign(name, t);
  }
  if (const Yaml v = root.get("nodes"); v.defined() && !nodes_from_generator) {
    spec.nodes = read_nodes(v);
    spec.has_nodes = true;
    spec.nodes_loc = v.loc();
  }
  if (const Yaml v = root.get("devices"); v.defined()) {
    if (!v.is_seq()) v.fail("expected a list of devices");
    const size_t inherited = spec.devices.size();
    for (const Yaml& item : v.items()) {
      const Yaml id = item.is_map() ? item.get("id") : Yaml();
      auto base = id.defined() ? std::find_if(spec.devices.begin(), spec.devices.begin() + inherited,
                                              [&](const std::vector<Yaml>& d) {
                                                const Yaml other = d.back().get("id");
                                                return other.defined() && other.str() == id.str();
                                              })
                               : spec.devices.begin() + inherited;
      if (base != spec.devices.begin() + inherited)
        base->insert(base->begin(), item);  // overrides an included device
      else
        spec.devices.push_back({item});
    }
  }
  if (const Yaml v = root.get("links"); v.defined()) {
    if (!v.is_seq()) v.fail("expected a list of links");
    for (const Yaml& item : v.items()) spec.links.push_back(item);
  }
  if (const Yaml v = root.get("routes"); v.defined()) {
    if (!v.is_seq()) v.fail("expected a list of routes, each a list of device ids");
    spec.routes.push_back(v);
  }
}

TopologySpec read(const Yaml& root, std::vector<std::string>& chain) {
  if (!root.is_map()) root.fail("expected a topology map with 'devices' (and usually 'links') or 'nodes'");
  root.allow_keys({"name", "description", "source", "network", "memory", "gpudirect", "calibration", "runtime", "include", "generator",
                   "templates", "node_templates", "nodes", "fabric", "devices", "links", "routes"});
  const Yaml include = root.get("include"), generator = root.get("generator");
  if (include.defined() && generator.defined()) generator.fail("expected either 'include' or 'generator', not both");
  TopologySpec spec;
  std::string base;
  Generated generated;
  if (generator.defined()) {
    generated = run_generator(generator, root);
    base = generated.base_preset;
  }
  const Yaml base_spec = include.defined() ? include : Yaml(YAML::Node(base), root.file());
  if (include.defined() || generator.defined()) {
    // An include is relative to the directory of the file that names it; one given on the command
    // line (a --set value, located at no line of a file) to the working directory, as any path there.
    const fs::path dir = include.loc().line > 0 ? fs::path(include.file()).parent_path() : fs::path();
    const Yaml included = resolve_hardware(base_spec, dir);
    if (std::find(chain.begin(), chain.end(), included.file()) != chain.end())
      base_spec.fail(fmt::format("include cycle: '{}' includes itself", included.file()));
    chain.push_back(included.file());
    spec = read(included, chain);
    chain.pop_back();
  }
  if (generator.defined()) {
    spec.nodes = generated.nodes;
    spec.has_nodes = true;
    spec.nodes_loc = generator.loc();
  }
  layer(spec, root, generator.defined());
  spec.name = root.str_or("name", "");
  return spec;
}

}  // namespace

TopologySpec read_spec(const Yaml& root) {
  std::vector<std::string> chain{root.file()};
  return read(root, chain);
}

Yaml resolve_hardware(const Yaml& spec, const fs::path& dir) {
  if (spec.is_map()) return spec;
  if (!spec.is_scalar()) spec.fail("expected a hardware preset name, a topology file path or a topology map");
  const std::string s = spec.str();
  if (is_preset(s)) return Yaml::load_string(preset_text(s), "preset:" + s);
  const fs::path path = (dir / s).lexically_normal();
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return Yaml::load_file(path.string());
  spec.fail(fmt::format("unknown preset or file '{}' (presets: {})", s, preset_names()));
}

}  // namespace placesim::hw
