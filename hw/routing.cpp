#include "hw/routing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "sim/core/time.hpp"

namespace placesim::hw::detail {
namespace {

using Cost = std::pair<std::int64_t, std::int64_t>;  // (hops, latency in ps), lexicographic

constexpr Cost kUnreached{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};

}  // namespace

// The links at each device, as one array (CSR): device v's are edges[first[v] .. first[v+1]).
struct RouteGraph::Impl {
  struct Edge {
    int to = -1;
    int link = -1;
    std::int64_t latency_ps = 0;
  };
  std::vector<int> first;
  std::vector<Edge> edges;
  std::vector<Link> links;  // the ends and latency of each link, as finalize saw them
};

RouteGraph::RouteGraph(int num_devices, const std::vector<Link>& links) : impl_(std::make_unique<Impl>()) {
  Impl& g = *impl_;
  g.first.assign(num_devices + 1, 0);
  g.links.reserve(links.size());
  for (const Link& l : links) {
    PLACESIM_ASSERT(l.a >= 0 && l.b >= 0 && l.a < num_devices && l.b < num_devices && l.a != l.b,
                    "link '" + l.id + "' must join two different devices");
    ++g.first[l.a + 1], ++g.first[l.b + 1];
    Link ends;  // what walk() reads: no names, no locations
    ends.a = l.a, ends.b = l.b, ends.latency_s = l.latency_s;
    g.links.push_back(ends);
  }
  for (int v = 0; v < num_devices; ++v) g.first[v + 1] += g.first[v];
  g.edges.resize(g.first[num_devices]);
  std::vector<int> fill(g.first.begin(), g.first.end() - 1);
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Link& l = links[i];
    const std::int64_t ps = std::llround(l.latency_s * static_cast<double>(kPsPerSecond));
    g.edges[fill[l.a]++] = {l.b, static_cast<int>(i), ps};
    g.edges[fill[l.b]++] = {l.a, static_cast<int>(i), ps};
  }
}

RouteGraph::~RouteGraph() = default;

std::vector<int> RouteGraph::tree(int src) const {
  const Impl& g = *impl_;
  const int n = static_cast<int>(g.first.size()) - 1;
  // Every link is one hop, so the fewest hops are breadth-first layers, and a device's best
  // (hops, latency) is the best over its neighbours one layer nearer: final once the
  // breadth-first order reaches it, as every device of the layer before comes first. Each
  // device keeps, among the neighbours giving its best, the one rule 3 picks.
  std::vector<Cost> dist(n, kUnreached);
  std::vector<std::pair<int, int>> best(n, {n, -1});  // (neighbour, link) by rule 3
  std::vector<int> order;
  order.reserve(n);
  dist[src] = {0, 0};
  order.push_back(src);
  for (std::size_t next = 0; next < order.size(); ++next) {
    const int u = order[next];
    for (int e = g.first[u]; e < g.first[u + 1]; ++e) {
      const Impl::Edge& edge = g.edges[e];
      const Cost via{dist[u].first + 1, dist[u].second + edge.latency_ps};
      Cost& d = dist[edge.to];
      if (d == kUnreached) order.push_back(edge.to);
      const std::pair<int, int> from{u, edge.link};
      if (via < d || (via == d && from < best[edge.to])) d = via, best[edge.to] = from;
    }
  }
  std::vector<int> pred(n, -1);
  for (int v = 0; v < n; ++v)
    if (v != src) pred[v] = best[v].second;
  return pred;
}

std::pair<int, int> RouteGraph::only_link(int v) const {
  const Impl& g = *impl_;
  if (g.first[v + 1] - g.first[v] != 1) return {-1, -1};
  const Impl::Edge& e = g.edges[g.first[v]];
  return {e.to, e.link};
}

// Walked twice, to count the hops and then to write them from the last: one allocation, where
// growing the list as it went took four for a cluster's eight hops (HEFT routes every pair).
Route RouteGraph::walk(const std::vector<int>& pred, int src, int dst) const {
  const std::vector<Link>& links = impl_->links;
  const auto up = [&](int v) {
    const Link& l = links[pred[v]];
    return l.a == v ? l.b : l.a;
  };
  std::size_t n = 0;
  for (int v = dst; v != src; v = up(v)) ++n;
  Route r;
  r.hops.resize(n);
  for (int v = dst; v != src; v = up(v)) r.hops[--n] = Hop{pred[v], links[pred[v]].a == up(v)};
  for (const Hop& h : r.hops) r.latency_s += links[h.link].latency_s;  // summed from src onwards
  return r;
}

}  // namespace placesim::hw::detail
