#include "hw/link_yaml.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "hw/yaml_values.hpp"

namespace placesim::hw {
namespace {

bool link_id_taken(const Topology& t, const std::string& id) { return t.find_link(id) >= 0; }

std::string default_link_id(const Topology& t, const Link& l) {
  const std::string base = t.devices[l.a].id + "-" + t.devices[l.b].id;
  std::string id = base;
  for (int k = 2; link_id_taken(t, id); ++k) id = fmt::format("{}#{}", base, k);
  return id;
}

// Route along `path` (device indices), taking the lowest-index link between consecutive devices.
Route route_along(const Topology& t, const std::vector<int>& path) {
  Route r;
  for (size_t i = 1; i < path.size(); ++i) {
    const int l = t.link_between(path[i - 1], path[i]);
    r.hops.push_back(Hop{l, t.links[l].a == path[i - 1]});
    r.latency_s += t.links[l].latency_s;
  }
  return r;
}

}  // namespace

void read_link_figures(const Yaml& node, Link& l) {
  l.count = node.has("count") ? positive_count(node.at("count")) : 1;
  if (node.has("bw")) {
    if (node.has("bw_ab") || node.has("bw_ba"))
      node.fail("expected either 'bw' (both directions) or 'bw_ab' and 'bw_ba', not both");
    l.bw_ab = l.bw_ba = node.at("bw").positive_bandwidth();
  } else {
    if (!node.has("bw_ab") || !node.has("bw_ba"))
      node.fail("expected 'bw' (both directions) or both 'bw_ab' and 'bw_ba'");
    l.bw_ab = node.at("bw_ab").positive_bandwidth();
    l.bw_ba = node.at("bw_ba").positive_bandwidth();
  }
  l.bw_ab *= l.count;
  l.bw_ba *= l.count;
  // A bundle's rate is its links' together: checked here, as each figure was, since a product
  // past the largest double would reach the engine as an infinite capacity.
  if (!std::isfinite(l.bw_ab) || !std::isfinite(l.bw_ba))
    node.at("count").fail(fmt::format("count {} times the link's bandwidth is beyond the largest representable value",
                                      l.count));
  if (node.has("latency")) l.latency_s = nonnegative_duration(node.at("latency"));
  l.kind = node.str_or("kind", "");
}

LinkSpec read_link(const Yaml& node) {
  if (!node.is_map()) node.fail("expected a link map such as {a: gpu0, b: bus0, bw: 12GB/s, latency: 1us}");
  node.allow_keys({"id", "a", "b", "bw", "bw_ab", "bw_ba", "latency", "count", "kind"});
  LinkSpec s;
  s.figures.loc = node.loc();
  const Yaml a = node.at("a"), b = node.at("b");
  s.a = a.str();
  s.a_loc = a.loc();
  s.b = b.str();
  s.b_loc = b.loc();
  read_link_figures(node, s.figures);
  if (const Yaml id = node.get("id"); id.defined()) {
    s.id = id.str();
    s.id_loc = id.loc();
  }
  return s;
}

void add_link(const LinkSpec& spec, Topology& t, const std::string& prefix) {
  Link l = spec.figures;
  l.a = t.index(prefix + spec.a, spec.a_loc);
  l.b = t.index(prefix + spec.b, spec.b_loc);
  if (l.a == l.b)
    throw InputError(spec.b_loc, fmt::format("a link joins two different devices, but both ends are '{}'", spec.b));
  if (!spec.id.empty()) {
    l.id = prefix + spec.id;
    if (link_id_taken(t, l.id)) throw InputError(spec.id_loc, fmt::format("duplicate link id '{}'", l.id));
  }
  append_link(t, std::move(l));
}

void append_link(Topology& t, Link l) {
  if (l.id.empty()) l.id = default_link_id(t, l);
  PLACESIM_ASSERT(t.add_link(std::move(l)) < 0, "a link's id is checked before it is added");
}

std::map<std::pair<int, int>, Route> parse_routes(const Yaml& routes, const Topology& t, const std::string& prefix) {
  std::map<std::pair<int, int>, Route> listed;
  std::vector<std::vector<int>> paths;
  for (const Yaml& item : routes.items()) {
    if (!item.is_seq()) item.fail("expected a route: a list of device ids such as [gpu0, bus0, host]");
    std::vector<int> path;
    for (const Yaml& id : item.items()) {
      const int d = t.index(prefix + id.str(), id.loc());
      if (std::find(path.begin(), path.end(), d) != path.end())
        id.fail(fmt::format("device '{}' appears twice in this route", prefix + id.str()));
      if (!path.empty() && t.link_between(path.back(), d) < 0)
        id.fail(fmt::format("no link joins '{}' and '{}' (an explicit route must follow links)",
                            t.devices[path.back()].id, prefix + id.str()));
      path.push_back(d);
    }
    if (path.size() < 2) item.fail("expected a route of at least two device ids");
    const std::pair<int, int> ends{path.front(), path.back()};
    if (listed.count(ends))
      item.fail(fmt::format("a route from '{}' to '{}' is already listed", t.devices[ends.first].id,
                            t.devices[ends.second].id));
    listed.emplace(ends, route_along(t, path));
    paths.push_back(std::move(path));
  }
  std::map<std::pair<int, int>, Route> out = listed;
  for (std::vector<int>& path : paths) {
    std::reverse(path.begin(), path.end());
    if (!listed.count({path.front(), path.back()})) out.emplace(std::pair{path.front(), path.back()}, route_along(t, path));
  }
  return out;
}

}  // namespace placesim::hw
