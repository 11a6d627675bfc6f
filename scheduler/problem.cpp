#include "scheduler/problem.hpp"

#include "sim/core/error.hpp"

namespace placesim::scheduler {

WeightsMode parse_weights(const std::string& s) {
  if (s == "host") return WeightsMode::Host;
  if (s == "resident") return WeightsMode::Resident;
  throw InputError("unknown weights mode '" + s + "' (expected host or resident)");
}

const char* to_string(WeightsMode m) { return m == WeightsMode::Host ? "host" : "resident"; }

double Problem::duration(int node, int dev) const {
  return cost->duration(graph->nodes[node], topo->devices[dev], graph->dtype);
}

}  // namespace placesim::scheduler
