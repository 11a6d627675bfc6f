// Longest path by one pass in topological order (the recurrence is in critical_path.hpp).
#include "models/transform/critical_path.hpp"

#include <algorithm>

namespace placesim::models {

CriticalPath critical_path(const Graph& g, const std::function<double(int node)>& node_time,
                           const std::function<double(int edge)>& edge_time) {
  const int n = static_cast<int>(g.nodes.size());
  std::vector<double> finish(n, 0);
  std::vector<int> best_pred(n, -1);
  CriticalPath cp;
  int last = -1;
  for (int v : g.topo_order()) {
    double start = 0;
    for (int e : g.in_edges(v)) {
      const double t = finish[g.edges[e].src] + (edge_time ? edge_time(e) : 0);
      if (best_pred[v] < 0 || t > start) {
        start = t;
        best_pred[v] = g.edges[e].src;
      }
    }
    finish[v] = start + node_time(v);
    if (last < 0 || finish[v] > cp.length) {
      cp.length = finish[v];
      last = v;
    }
  }
  for (int v = last; v >= 0; v = best_pred[v]) cp.nodes.push_back(v);
  std::reverse(cp.nodes.begin(), cp.nodes.end());
  return cp;
}

}  // namespace placesim::models
