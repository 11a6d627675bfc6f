#include "hw/routing.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>

#include "sim/core/time.hpp"

namespace placesim::hw::detail {
namespace {

using Cost = std::pair<std::int64_t, std::int64_t>;  // (hops, latency in ps), lexicographic

constexpr Cost kUnreached{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max()};

struct EdgeProp {
  int link = -1;
  Cost cost;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProp>;

Cost plus(const Cost& a, const Cost& b) { return {a.first + b.first, a.second + b.second}; }

}  // namespace

struct RouteGraph::Impl {
  Graph g;
  std::vector<Link> links;  // the ends and latency of each link, as finalize saw them
};

RouteGraph::RouteGraph(int num_devices, const std::vector<Link>& links) : impl_(std::make_unique<Impl>()) {
  impl_->g = Graph(num_devices);
  impl_->links.reserve(links.size());
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& l = links[i];
    PLACESIM_ASSERT(l.a >= 0 && l.b >= 0 && l.a < num_devices && l.b < num_devices && l.a != l.b,
                    "link '" + l.id + "' must join two different devices");
    const Cost c{1, std::llround(l.latency_s * static_cast<double>(kPsPerSecond))};
    boost::add_edge(l.a, l.b, EdgeProp{static_cast<int>(i), c}, impl_->g);
    Link ends;  // what walk() reads: no names, no locations
    ends.a = l.a, ends.b = l.b, ends.latency_s = l.latency_s;
    impl_->links.push_back(ends);
  }
}

RouteGraph::~RouteGraph() = default;

std::vector<int> RouteGraph::tree(int src) const {
  const Graph& g = impl_->g;
  const int n = static_cast<int>(boost::num_vertices(g));
  std::vector<Cost> dist(n, kUnreached);
  boost::dijkstra_shortest_paths(
      g, src,
      boost::weight_map(boost::get(&EdgeProp::cost, g))
          .distance_map(boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, g)))
          .distance_compare(std::less<Cost>())
          .distance_combine(&plus)
          .distance_inf(kUnreached)
          .distance_zero(Cost{0, 0}));
  // Rule 3: the predecessor link from the lowest-index neighbour on a best path (then the lowest
  // link index).
  std::vector<int> pred(n, -1);
  for (int v = 0; v < n; ++v) {
    if (v == src || dist[v] == kUnreached) continue;
    std::pair<int, int> best{n, -1};  // (neighbour, link)
    for (auto [e, end] = boost::out_edges(v, g); e != end; ++e) {
      const int u = static_cast<int>(boost::target(*e, g));
      const EdgeProp& p = g[*e];
      if (dist[u] == kUnreached || plus(dist[u], p.cost) != dist[v]) continue;
      best = std::min(best, std::pair<int, int>{u, p.link});
    }
    PLACESIM_ASSERT(best.second >= 0, "a reached device has a predecessor on a best path");
    pred[v] = best.second;
  }
  return pred;
}

Route RouteGraph::walk(const std::vector<int>& pred, int src, int dst) const {
  const std::vector<Link>& links = impl_->links;
  Route r;
  for (int v = dst; v != src;) {
    const Link& l = links[pred[v]];
    const int u = l.a == v ? l.b : l.a;
    r.hops.push_back(Hop{pred[v], l.a == u});
    v = u;
  }
  std::reverse(r.hops.begin(), r.hops.end());
  for (const Hop& h : r.hops) r.latency_s += links[h.link].latency_s;  // summed from src onwards
  return r;
}

}  // namespace placesim::hw::detail
