// round-robin: consecutive units (transformer layers, or single ops) dealt to the devices in
// turn, a naive pipeline split. Ops outside any layer (embedding, head) join the unit of the
// op before them in topological order (the first unit when none is).
#include <fmt/format.h>

#include "scheduler/plan/builder.hpp"
#include "scheduler/placers/list_schedule.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/device_option.hpp"

namespace placesim::scheduler {
namespace {

class RoundRobin final : public Placer {
 public:
  explicit RoundRobin(const PlacerOptions& o) : devices_(o.get("devices")) {
    const Yaml unit = o.get("unit");
    if (unit.str() != "layer" && unit.str() != "op") unit.fail(fmt::format("unit must be layer or op, got '{}'", unit.str()));
    by_layer_ = unit.str() == "layer";
  }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const std::vector<int> devs = devices_.resolve(*p.topo);
    const std::vector<int> ops = g.ops();
    bool has_layers = false;
    for (int op : ops) has_layers = has_layers || g.nodes[op].layer >= 0;
    const bool by_layer = by_layer_ && has_layers;

    std::vector<int> device_of(g.nodes.size(), -1);
    int unit = 0, last_layer = -1, k = 0;
    for (int op : ops) {
      if (by_layer) {
        const int layer = g.nodes[op].layer;
        if (layer >= 0 && layer != last_layer) {
          if (last_layer >= 0) ++unit;
          last_layer = layer;
        }
      } else {
        unit = k++;
      }
      device_of[op] = devs[static_cast<size_t>(unit) % devs.size()];
    }
    PlacerResult r;
    r.plan = build_plan(p, "round-robin", device_of, ops);
    r.predicted_s = contention_free_makespan(p, *r.plan);
    return r;
  }

 private:
  // Plain values, not YAML nodes: place() runs on many threads at once.
  bool by_layer_ = true;
  DeviceOption devices_;
};

}  // namespace

void register_round_robin(Registry<PlacerEntry>& r) {
  r.add("round-robin",
        {"consecutive layers (or ops) dealt to the devices in turn: a naive pipeline split",
         {{"unit", "layer", "layer: whole transformer layers; op: single ops"},
          DeviceOption::spec()},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<RoundRobin>(o); },
         PlacerFacts{.sample = {.hardware = "pcie-4gpu-2bus", .arch = "openllama-3b",
                                .granularity = models::Granularity::Layer}}});
}

}  // namespace placesim::scheduler
