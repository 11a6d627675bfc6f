// single-device: every op on one device, in topological order; with weights: host, each
// parameter is copied over the device's PCIe route before its first use. The baseline every
// paper measures against.
#include <fmt/format.h>

#include "scheduler/plan/builder.hpp"
#include "scheduler/placers/list_schedule.hpp"
#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {
namespace {

class SingleDevice final : public Placer {
 public:
  explicit SingleDevice(const PlacerOptions& o) : device_(o.get("device").str()), loc_(o.get("device").loc()) {}

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const int dev = choose(p);
    std::vector<int> device_of(g.nodes.size(), dev);
    PlacerResult r;
    r.plan = build_plan(p, "single-device", device_of, g.ops());
    r.predicted_s = contention_free_makespan(p, *r.plan);
    return r;
  }

 private:
  // The named device, or (auto) the one with the smallest total op time; ties: lowest index.
  int choose(const Problem& p) const {
    if (device_ != "auto") {
      const int d = p.topo->find(device_);
      if (d < 0 || !p.topo->devices[d].is_compute())
        throw InputError(loc_, fmt::format("'{}' is not a compute device of '{}'", device_, p.topo->name));
      return d;
    }
    int best = -1;
    double best_total = models::kCannotRun;
    for (int d : p.topo->compute_devices()) {
      double total = 0;
      for (int op : p.graph->ops()) total += p.duration(op, d);
      if (total < best_total) best = d, best_total = total;
    }
    if (best < 0) throw InputError(fmt::format("no device of '{}' can run every op", p.topo->name));
    return best;
  }

  // Plain values, not YAML nodes: place() runs on many threads at once.
  std::string device_;
  SourceLoc loc_;
};

}  // namespace

void register_single_device(Registry<PlacerEntry>& r) {
  r.add("single-device",
        {"everything on one device; parameters copied over its PCIe route first (the usual baseline)",
         {{"device", "auto", "device id, or auto: the device with the smallest total op time"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<SingleDevice>(o); }});
}

}  // namespace placesim::scheduler
