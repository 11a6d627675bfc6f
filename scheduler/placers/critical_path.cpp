// critical-path (SortingHat, section on lower bounds): a bound, not a plan. The longest path
// through the graph with every op at its fastest device, communication free and weights
// resident:  CP = max over paths P of sum_{v in P} min_d t(v, d).
// No placer that keeps ops whole can beat it, so every simulated makespan is >= CP; a plan that
// splits ops over devices (PlacerEntry::splits_ops) can, and so can one that launches kernels
// from a host queue (PlacerEntry::offload), overlapping the launch each op's t(v, d) includes.
#include <algorithm>
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {
namespace {

class CriticalPath final : public Placer {
 public:
  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    std::vector<double> finish(g.nodes.size(), 0.0);
    double cp = 0;
    for (int n : g.topo_order()) {
      double start = 0;
      for (int e : g.in_edges(n)) start = std::max(start, finish[g.edges[e].src]);
      double fastest = 0;
      if (g.nodes[n].kind == models::NodeKind::Op) {
        fastest = models::kCannotRun;
        for (int d : p.topo->compute_devices()) fastest = std::min(fastest, p.duration(n, d));
        if (fastest == models::kCannotRun)
          throw InputError(fmt::format("op '{}' cannot run on any device of '{}'", g.nodes[n].name, p.topo->name));
      }
      finish[n] = start + fastest;
      cp = std::max(cp, finish[n]);
    }
    PlacerResult r;
    r.predicted_s = cp;
    r.message = "lower bound: longest path, each op at its fastest device, free communication";
    return r;
  }
};

}  // namespace

void register_critical_path(Registry<PlacerEntry>& r) {
  r.add("critical-path",
        {"a bound, not a plan: longest path with each op at its fastest device, free communication, "
         "resident weights (plans that split ops, or launch kernels from the host, can beat it)",
         {},
         PlacerKind::Bound,
         [](const PlacerOptions&) { return std::make_unique<CriticalPath>(); }});
}

}  // namespace placesim::scheduler
