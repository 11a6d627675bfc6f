#include "scheduler/plan/weight_layout.hpp"

#include <algorithm>

#include "scheduler/plan/slices.hpp"

namespace placesim::scheduler {

WeightLayout weight_layout(const models::Graph& g, const Plan& plan) {
  const models::Graph sliced = slice_graph(g, plan);
  WeightLayout layout;
  for (int p : sliced.params()) {
    WeightPlace& w = layout[sliced.nodes[p].name];
    w.bytes = sliced.nodes[p].param_bytes;
    for (int e : sliced.out_edges(p)) w.devices.insert(plan.device_of[sliced.edges[e].dst]);
  }
  return layout;
}

std::string first_difference(const WeightLayout& a, const WeightLayout& b) {
  auto i = a.begin();
  auto j = b.begin();
  for (; i != a.end() && j != b.end(); ++i, ++j)
    if (i->first != j->first) return std::min(i->first, j->first);
    else if (i->second != j->second) return i->first;
  if (i != a.end()) return i->first;
  if (j != b.end()) return j->first;
  return "";
}

}  // namespace placesim::scheduler
