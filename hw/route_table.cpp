#include "hw/route_table.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace placesim::hw::detail {
namespace {

long long pair_key(int a, int b, int n) { return static_cast<long long>(a) * n + b; }

int root(std::vector<int>& parent, int v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

void append(Route& r, const Route& more) { r.hops.insert(r.hops.end(), more.hops.begin(), more.hops.end()); }

// What a route held in the cache costs: its hops; itself in the block it shares with its holders
// (a virtual table and two counts); the map's node (next pointer, key, handle, cached hash); the
// pair's place in the order of eviction.
std::size_t route_bytes(const Route& r) {
  constexpr std::size_t kShared = sizeof(void*) + 2 * sizeof(int) + sizeof(Route);
  constexpr std::size_t kNode = sizeof(void*) + sizeof(long long) + sizeof(RouteRef) + sizeof(std::size_t);
  return r.hops.size() * sizeof(Hop) + kShared + kNode + sizeof(long long);
}

}  // namespace

RouteTable::RouteTable(const std::vector<Device>& devices, const std::vector<Link>& links,
                       std::map<std::pair<int, int>, Route> listed, RouteRules rules, bool ideal,
                       std::size_t tree_budget, std::size_t route_budget)
    : links_(links), listed_(std::move(listed)), rules_(std::move(rules)), ideal_(ideal),
      graph_(static_cast<int>(devices.size()), links), tree_budget_(tree_budget), route_budget_(route_budget) {
  const int count = static_cast<int>(devices.size());
  kinds_.reserve(devices.size());
  for (const Device& d : devices) kinds_.push_back(d.kind);
  for (int d = 0; d < count; ++d)
    if (kinds_[d] == DeviceKind::HostMemory) hosts_.push_back(d);
  std::vector<int> parent(count);
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t i = links.size(); i-- > 0;) {  // from the last, so the lowest index is kept
    link_between_[pair_key(links[i].a, links[i].b, count)] = static_cast<int>(i);
    link_between_[pair_key(links[i].b, links[i].a, count)] = static_cast<int>(i);
    parent[root(parent, links[i].a)] = root(parent, links[i].b);
  }
  component_.resize(count);
  component_has_host_.assign(count, 0);
  for (int d = 0; d < count; ++d) component_[d] = root(parent, d);
  for (int h : hosts_) component_has_host_[component_[h]] = 1;
  leaf_pos_.assign(count, -1);
  for (size_t i = 0; i < rules_.leaves.size(); ++i) leaf_pos_[rules_.leaves[i]] = static_cast<int>(i);
  is_spine_.assign(count, 0);
  for (int s : rules_.spines) is_spine_[s] = 1;
  for (const auto& [ends, r] : listed_) {
    int at = ends.first;
    for (const Hop& h : r.hops) {
      PLACESIM_ASSERT(h.link >= 0 && h.link < static_cast<int>(links_.size()) &&
                          (h.forward ? links_[h.link].a : links_[h.link].b) == at,
                      "an explicit route must follow links from src to dst");
      at = far_end(h);
    }
    PLACESIM_ASSERT(at == ends.second, "an explicit route must follow links from src to dst");
  }
  trees_.resize(count);
  host_[0].assign(count, -2);
  host_[1].assign(count, -2);
}

bool RouteTable::connected(int src, int dst) const {
  return ideal_ || src == dst || component_[src] == component_[dst] || listed_.count({src, dst});
}

// The route no rule computes: empty (an ideal network, or a device to itself) or listed in the
// file; nullptr for any other pair. It lives as long as the table.
const Route* RouteTable::fixed(int src, int dst) const {
  static const Route kEmpty;
  if (ideal_ || src == dst) return &kEmpty;
  const auto l = listed_.find({src, dst});
  return l != listed_.end() ? &l->second : nullptr;
}

RouteRef RouteTable::route(int src, int dst) const {
  // Handed out without a share of ownership: it lives as long as the table.
  if (const Route* f = fixed(src, dst)) return RouteRef(RouteRef(), f);
  std::lock_guard<std::mutex> lock(mu_);
  const long long key = pair_key(src, dst, n());
  if (auto r = routes_.find(key); r != routes_.end()) return r->second;
  RouteRef r = std::make_shared<const Route>(computed(src, dst, Stage::Final));
  keep(key, r);
  return r;
}

// For a caller that asks each pair once (a table of every pair's cost): kept, its routes would
// only push out those that are asked for again, and the cache's lookups and rehashing were a
// quarter of HEFT's plan on a 1,024-GPU cluster (docs/engine-scale.md).
Route RouteTable::route_once(int src, int dst) const {
  if (const Route* f = fixed(src, dst)) return *f;
  std::lock_guard<std::mutex> lock(mu_);
  return computed(src, dst, Stage::Final);
}

// The oldest routes are dropped while the cache is over its budget, all but the one just kept.
void RouteTable::keep(long long key, const RouteRef& r) const {
  routes_.emplace(key, r);
  route_order_.push_back(key);
  route_bytes_ += route_bytes(*r);
  while (route_bytes_ > route_budget_ && route_order_.size() > 1) {
    const auto oldest = routes_.find(route_order_.front());
    route_bytes_ -= route_bytes(*oldest->second);
    routes_.erase(oldest);
    route_order_.pop_front();
  }
}

int RouteTable::host_memory_for(int device) const {
  std::lock_guard<std::mutex> lock(mu_);
  return host_memory(device, Stage::Final);
}

bool RouteTable::reaches_host_memory(int device) const {
  if (kinds_[device] == DeviceKind::HostMemory || (ideal_ && !hosts_.empty())) return true;
  if (component_has_host_[component_[device]]) return true;
  return std::any_of(hosts_.begin(), hosts_.end(), [&](int h) { return listed_.count({device, h}) > 0; });
}

// Built when missing, then the oldest trees over the budget dropped. No caller holds a tree
// across another call of tree(): each is walked at once (computed), so dropping one is safe.
//
// A device with one link (a host on its leaf switch, a GPU on its PCIe switch) takes the tree of
// the device at the link's other end, as a copy with two entries changed, instead of a search:
// every best route from it leaves by that link, and every other device's is the same as from
// the other end, one link longer (each candidate's hops and latency grow alike, so rules 1-3
// of hw/routing.hpp choose the same predecessor; no other device can reach it but through the
// other end). Hosts on 32 leaves asked trees from 430 of 512 hosts at 1k flows, 7% of `placesim
// simulate`; they now search 32 trees. Not when the other end has one link too (two devices
// alone): its tree would ask for this one.
const std::vector<int>& RouteTable::tree(int src) const {
  if (trees_[src]) return *trees_[src];
  std::vector<int> t;
  if (const auto [end, link] = graph_.only_link(src); end >= 0 && graph_.only_link(end).first < 0) {
    t = tree(end);
    t[static_cast<std::size_t>(src)] = -1;
    t[static_cast<std::size_t>(end)] = link;
  } else {
    t = graph_.tree(src);
  }
  const std::size_t most = std::max<std::size_t>(1, tree_budget_ / static_cast<std::size_t>(std::max(1, n())));
  for (; tree_order_.size() >= most; tree_order_.pop_front()) trees_[tree_order_.front()].reset();
  trees_[src] = std::make_unique<std::vector<int>>(std::move(t));
  tree_order_.push_back(src);
  return *trees_[src];
}

std::size_t RouteTable::trees_held() const {
  std::lock_guard<std::mutex> lock(mu_);
  return tree_order_.size();
}

std::size_t RouteTable::routes_held() const {
  std::lock_guard<std::mutex> lock(mu_);
  return routes_.size();
}

// The route as the rules leave it at `stage`; the pair is connected, not listed, src != dst.
Route RouteTable::computed(int src, int dst, Stage stage_at) const {
  if (stage_at == Stage::Final && !rules_.gpudirect &&
      (kinds_[src] == DeviceKind::Gpu || kinds_[dst] == DeviceKind::Gpu)) {
    Route staged;
    if (stage(src, dst, staged)) return staged;
  }
  return respined(src, dst);
}

// Any pair's route after rule 1: listed, or the best route, respined.
Route RouteTable::respined(int src, int dst) const {
  if (src == dst) return {};
  if (auto l = listed_.find({src, dst}); l != listed_.end()) return l->second;
  if (component_[src] != component_[dst]) return {};  // not connected: callers check first
  Route r = graph_.walk(tree(src), src, dst);
  if (rules_.spines.size() > 1) respine(r, src);
  return r;
}

int RouteTable::far_end(const Hop& h) const { return h.forward ? links_[h.link].b : links_[h.link].a; }

Hop RouteTable::hop_between(int from, int to) const {
  const auto l = link_between_.find(pair_key(from, to, n()));
  PLACESIM_ASSERT(l != link_between_.end(), "every leaf links to every spine");
  return Hop{l->second, links_[l->second].a == from};
}

double RouteTable::latency(const Route& r) const {
  double s = 0;
  for (const Hop& h : r.hops) s += links_[h.link].latency_s;
  return s;
}

// Rule 1. True when `r` changed.
bool RouteTable::respine(Route& r, int src) const {
  const std::vector<int>& spines = rules_.spines;
  bool changed = false;
  int at = src;
  for (size_t i = 0; i + 1 < r.hops.size(); ++i) {
    const int next = far_end(r.hops[i]);
    if (is_spine_[next]) {
      const int to_leaf = far_end(r.hops[i + 1]);
      const int pos = leaf_pos_[to_leaf];
      if (pos >= 0 && spines[static_cast<size_t>(pos) % spines.size()] != next) {
        const int spine = spines[static_cast<size_t>(pos) % spines.size()];
        r.hops[i] = hop_between(at, spine);
        r.hops[i + 1] = hop_between(spine, to_leaf);
        changed = true;
      }
    }
    at = far_end(r.hops[i]);
  }
  if (changed) r.latency_s = latency(r);
  return changed;
}

bool RouteTable::crosses_nic(const Route& r, int src) const {
  if (kinds_[src] == DeviceKind::Nic) return true;
  return std::any_of(r.hops.begin(), r.hops.end(), [&](const Hop& h) { return kinds_[far_end(h)] == DeviceKind::Nic; });
}

// Rule 2, on the routes and host memories rule 1 leaves. True when src -> dst is staged.
bool RouteTable::stage(int src, int dst, Route& out) const {
  if (!crosses_nic(respined(src, dst), src)) return false;
  const auto staged_at = [&](int d) {
    const int h = kinds_[d] == DeviceKind::Gpu ? host_memory(d, Stage::Respined) : -1;
    return h >= 0 && !crosses_nic(respined(d, h), d) ? h : -1;
  };
  const int hs = staged_at(src), hd = staged_at(dst);
  if (hs < 0 && hd < 0) return false;
  const int from = hs < 0 ? src : hs, to = hd < 0 ? dst : hd;
  if (!connected(from, to)) return false;
  out = Route{};
  if (hs >= 0) append(out, respined(src, hs));
  if (from != to) append(out, respined(from, to));
  if (hd >= 0) append(out, respined(hd, dst));
  out.latency_s = latency(out);
  return true;
}

int RouteTable::host_memory(int device, Stage stage_at) const {
  int& known = host_[stage_at == Stage::Final ? 1 : 0][device];
  if (known != -2) return known;
  int best = -1;
  double best_latency = 0;
  if (kinds_[device] == DeviceKind::HostMemory) {
    best = device;
  } else {
    for (int h : hosts_) {
      if (!connected(device, h)) continue;
      // Strictly nearer only: hosts are visited in index order, so ties keep the lowest index.
      const double l = ideal_ ? 0.0 : listed_.count({device, h}) ? listed_.at({device, h}).latency_s
                                                                   : computed(device, h, stage_at).latency_s;
      if (best < 0 || l < best_latency) best = h, best_latency = l;
    }
  }
  return known = best;
}

}  // namespace placesim::hw::detail
