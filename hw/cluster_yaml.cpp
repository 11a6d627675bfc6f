#include "hw/cluster_yaml.hpp"

#include <fmt/format.h>
#include <set>
#include <string>

#include "hw/device_yaml.hpp"
#include "hw/link_yaml.hpp"
#include "hw/yaml_values.hpp"

namespace placesim::hw {
namespace {

// A node template, read once however many nodes use it.
struct NodeTemplate {
  TopologySpec spec;
  DeviceTemplates templates;  // the file's device templates, then the node template's own
  // Its devices and links, read once: a node's are these with the node's prefix on each id (the
  // only field a prefix changes), so 512 nodes do not read the same maps 512 times.
  std::vector<Device> devices = {};
  std::vector<LinkSpec> links = {};
};

NodeTemplate read_node_template(const Yaml& t, const TopologySpec& top) {
  if (!t.is_map()) t.fail("expected a node template map such as {devices: [...], links: [...]}");
  t.allow_keys({"include", "templates", "devices", "links", "routes"});
  NodeTemplate n{read_spec(t), top.templates};
  if (n.spec.has_nodes || n.spec.fabric.defined() || !n.spec.node_templates.empty())
    t.fail("a node template cannot itself be a cluster (it has nodes, node_templates or a fabric)");
  if (n.spec.devices.empty()) t.fail("expected a node template with devices");
  for (auto& [name, d] : n.spec.templates) n.templates.insert_or_assign(name, d);
  std::set<std::string> ids;
  for (const std::vector<Yaml>& layers : n.spec.devices) {
    const Yaml id = layers.front().get("id");
    if (id.defined() && !ids.insert(id.str()).second)
      id.fail(fmt::format("duplicate device id '{}' in this node template", id.str()));
  }
  TemplateDevices made;
  for (const std::vector<Yaml>& layers : n.spec.devices) n.devices.push_back(parse_device(layers, n.templates, "", &made));
  for (const Yaml& l : n.spec.links) n.links.push_back(read_link(l));
  return n;
}

Device switch_device(const std::string& id, const std::string& model, const Yaml& where) {
  Device d;
  d.id = id;
  d.kind = DeviceKind::Switch;
  d.model = model;
  d.loc = where.loc();
  return d;
}

Link fabric_link(const Yaml& figures, int a, int b) {
  if (!figures.is_map()) figures.fail("expected link figures such as {bw: 25GB/s, latency: 1us, kind: ib}");
  figures.allow_keys({"bw", "bw_ab", "bw_ba", "latency", "count", "kind"});
  Link l;
  l.a = a;
  l.b = b;
  l.loc = figures.loc();
  read_link_figures(figures, l);
  return l;
}

void add_fabric(const Yaml& f, const std::vector<std::vector<int>>& nics, const SourceLoc& nodes_loc, Topology& t,
                ClusterBuild& out) {
  if (!f.defined()) {
    if (nics.size() > 1)
      throw InputError(nodes_loc, fmt::format("a cluster of {} nodes needs a 'fabric:' joining their NICs", nics.size()));
    return;
  }
  if (!f.is_map()) f.fail("expected a fabric map such as {type: switch, link: {bw: 25GB/s, latency: 1us}}");
  const Yaml type = f.at("type");
  const bool leaf_spine = type.str() == "leaf-spine";
  if (type.str() == "switch")
    f.allow_keys({"type", "link"});
  else if (leaf_spine)
    f.allow_keys({"type", "link", "leaf_size", "spines", "uplink"});
  else
    type.fail(fmt::format("unknown fabric type '{}' (expected switch or leaf-spine)", type.str()));
  std::vector<int> all;
  for (size_t k = 0; k < nics.size(); ++k) {
    if (nics[k].empty())
      throw InputError(nodes_loc, fmt::format("node n{} has no nic device; the fabric joins nodes through their "
                                              "NICs (add {{id: nic0, type: nic}} linked to a PCIe switch)",
                                              k));
    all.insert(all.end(), nics[k].begin(), nics[k].end());
  }
  const Yaml link = f.at("link");
  if (!leaf_spine) {
    add_device(t, switch_device("fabric", "fabric switch", f), f.loc());
    const int sw = static_cast<int>(t.devices.size()) - 1;
    for (int nic : all) append_link(t, fabric_link(link, nic, sw));
    return;
  }
  const int leaf_size = positive_count(f.at("leaf_size"));
  const int spines = positive_count(f.at("spines"));
  const int leaves = (static_cast<int>(all.size()) + leaf_size - 1) / leaf_size;
  for (int i = 0; i < leaves; ++i) {
    add_device(t, switch_device(fmt::format("leaf{}", i), "leaf switch", f), f.loc());
    out.leaves.push_back(static_cast<int>(t.devices.size()) - 1);
  }
  for (int j = 0; j < spines; ++j) {
    add_device(t, switch_device(fmt::format("spine{}", j), "spine switch", f), f.loc());
    out.spines.push_back(static_cast<int>(t.devices.size()) - 1);
  }
  for (size_t n = 0; n < all.size(); ++n) append_link(t, fabric_link(link, all[n], out.leaves[n / leaf_size]));
  const Yaml uplink = f.at("uplink");
  for (int leaf : out.leaves)
    for (int spine : out.spines) append_link(t, fabric_link(uplink, leaf, spine));
}

std::string names_of(const std::map<std::string, Yaml>& m) {
  std::string s;
  for (auto& [name, _] : m) s += (s.empty() ? "" : ", ") + name;
  return s.empty() ? "none" : s;
}

}  // namespace

void add_device(Topology& t, Device d, const SourceLoc& where) {
  const std::string id = d.id;
  if (const int prev = t.add_device(std::move(d)); prev >= 0)
    throw InputError(where, fmt::format("duplicate device id '{}' (first at {})", id, t.devices[prev].loc.str()));
}

ClusterBuild add_cluster(const TopologySpec& spec, Topology& t) {
  ClusterBuild out;
  if (!spec.has_nodes) {
    if (spec.fabric.defined()) spec.fabric.fail("a fabric joins cluster nodes, but there is no 'nodes:' list");
    return out;
  }
  std::map<std::string, NodeTemplate> read;
  std::vector<std::vector<int>> nics;  // per node, its NICs' device indices
  for (const NodeGroup& g : spec.nodes) {
    const auto it = spec.node_templates.find(g.tmpl);
    if (it == spec.node_templates.end())
      throw InputError(g.tmpl_loc, fmt::format("unknown node template '{}' (node templates: {})", g.tmpl,
                                               names_of(spec.node_templates)));
    auto found = read.find(g.tmpl);
    if (found == read.end()) found = read.emplace(g.tmpl, read_node_template(it->second, spec)).first;
    const NodeTemplate& nt = found->second;
    for (int c = 0; c < g.count; ++c) {
      const std::string node = fmt::format("n{}", nics.size());
      const std::string prefix = node + ".";
      nics.emplace_back();
      for (const Device& read_once : nt.devices) {
        Device d = read_once;
        d.id = prefix + d.id;
        d.node = node;
        if (d.kind == DeviceKind::Nic) nics.back().push_back(static_cast<int>(t.devices.size()));
        add_device(t, std::move(d), g.tmpl_loc);
      }
      for (const LinkSpec& l : nt.links) add_link(l, t, prefix);
      for (const Yaml& r : nt.spec.routes)
        for (auto& [ends, route] : parse_routes(r, t, prefix)) out.routes.insert_or_assign(ends, route);
    }
  }
  add_fabric(spec.fabric, nics, spec.nodes_loc, t, out);
  return out;
}

}  // namespace placesim::hw
