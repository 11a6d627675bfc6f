#include "scheduler/problem.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::scheduler {

engine::Fidelity parse_fidelity(const std::string& s) {
  if (s == "flow") return engine::Fidelity::Flow;
  if (s == "analytic") return engine::Fidelity::Analytic;
  if (s == "ideal") return engine::Fidelity::Ideal;
  if (s == "link") return engine::Fidelity::Link;
  throw InputError("unknown collective fidelity '" + s + "' (expected flow, link, analytic or ideal)");
}

LinearVolume parse_linear_volume(const std::string& s) {
  if (s == "exact") return LinearVolume::Exact;
  if (s == "per-linear") return LinearVolume::PerLinear;
  throw InputError("unknown linear volume '" + s + "' (expected exact or per-linear)");
}

WeightsMode parse_weights(const std::string& s) {
  if (s == "host") return WeightsMode::Host;
  if (s == "resident") return WeightsMode::Resident;
  throw InputError("unknown weights mode '" + s + "' (expected host or resident)");
}

std::string check_duration_devices(const models::Graph& g, const hw::Topology& topo) {
  for (const models::Node& n : g.nodes)
    for (const auto& [device, seconds] : n.durations) {
      const int d = topo.find(device);
      if (d < 0)
        return fmt::format("op '{}' of graph '{}' gives a duration on '{}', which is not a device of '{}'", n.name, g.name,
                           device, topo.name);
      // A host memory, switch or NIC runs no op: a duration there is a slip of the device's name.
      if (!topo.devices[d].is_compute())
        return fmt::format("op '{}' of graph '{}' gives a duration on '{}', which computes nothing (a {} of '{}')",
                           n.name, g.name, device, hw::to_string(topo.devices[d].kind), topo.name);
    }
  return "";
}

const char* to_string(WeightsMode m) { return m == WeightsMode::Host ? "host" : "resident"; }

// With `runtime: {dispatch_on: device}` an op's dispatch is device time, paid once per op like
// the launch (hw::Runtime::on_device); an op known by explicit durations keeps them.
double Problem::on_device_dispatch(int node, const hw::Device& d, double t) const {
  if (!topo->runtime.on_device || t == models::kCannotRun || !graph->nodes[node].durations.empty()) return t;
  return t + d.dispatch_s;
}

double Problem::duration(int node, int dev, int cores) const {
  const hw::Device& d = topo->devices[dev];
  if (d.kind != hw::DeviceKind::Cpu) return on_device_dispatch(node, d, cost->duration(graph->nodes[node], d, graph->dtype));
  return on_device_dispatch(node, d, cost->duration(graph->nodes[node], models::on_cores(d, cores), graph->dtype));
}

double Problem::core_duration(int node, int dev, int cores) const {
  const hw::Device& d = topo->devices[dev];
  if (d.kind != hw::DeviceKind::Cpu) return duration(node, dev);
  return on_device_dispatch(node, d, cost->duration(graph->nodes[node], models::on_one_core(d, cores), graph->dtype));
}

}  // namespace placesim::scheduler
