// Small graphs for the placer tests: ops with fixed durations on every GPU, each reading one
// parameter, wired as a chain or a seeded random DAG.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "models/graph.hpp"

namespace sortinghat_test {

using namespace placesim;

struct GraphSpec {
  int ops = 4;
  double param_bytes = 1e6;
  double output_bytes = 1e5;
  std::vector<double> seconds;     // per op (cycled); same on every GPU
  std::vector<std::string> gpus;   // device ids the durations are given for
  double density = 0;              // 0: a chain; else edge u -> v (u < v) with this probability
  std::uint64_t seed = 1;
};

inline models::Graph make_graph(const GraphSpec& s) {
  models::Graph g;
  g.name = "g";
  std::mt19937_64 rng(s.seed);
  std::vector<int> op(s.ops);
  for (int i = 0; i < s.ops; ++i) {
    models::Node w;
    w.name = "w" + std::to_string(i);
    w.kind = models::NodeKind::Param;
    w.type = "param";
    w.param_bytes = s.param_bytes;
    const int wi = g.add_node(w);
    models::Node n;
    n.name = "op" + std::to_string(i);
    n.type = "matmul";
    n.output_bytes = s.output_bytes;
    for (const std::string& d : s.gpus) n.durations[d] = s.seconds[static_cast<size_t>(i) % s.seconds.size()];
    op[i] = g.add_node(n);
    g.add_edge(wi, op[i], s.param_bytes);
  }
  for (int v = 1; v < s.ops; ++v) {
    bool any = false;
    for (int u = 0; u < v; ++u)
      if (s.density > 0 && std::uniform_real_distribution<double>(0, 1)(rng) < s.density)
        g.add_edge(op[u], op[v], s.output_bytes), any = true;
    if (!any) g.add_edge(op[v - 1], op[v], s.output_bytes);
  }
  g.validate();
  return g;
}

}  // namespace sortinghat_test
