// The machines a scenario's points run on, loaded once each: points on the same hardware share
// one Topology (loading a 4096-GPU cluster takes most of a second), and with it the routes it
// computes on demand (hw/route_table.hpp), which any number of threads may ask for at once.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hw/topology.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::explore {

class TopologyCache {
 public:
  // The topology `hardware` (a point's `hardware:` value) describes: the one loaded before for
  // the same text, or loaded now (InputError at its location, as hw::load_topology).
  std::shared_ptr<const hw::Topology> get(const Yaml& hardware);

 private:
  // The machines last asked for, most recent first. A sweep runs its points in order, so a
  // sweep over machines asks for each machine in turn or for the same one point after point;
  // four kept spare every reload of a sweep over up to four machines, whichever its axis
  // order, and bound what a sweep over many large clusters holds.
  static constexpr std::size_t kKept = 4;
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<const hw::Topology>>> recent_;
};

}  // namespace placesim::explore
