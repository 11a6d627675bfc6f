// A placer's `devices` option: `auto` (every GPU, every compute device if none: default_devices)
// or a list of device ids, kept as plain values (place() runs on many threads at once) and
// resolved against each problem's topology, with the option's location in errors.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "scheduler/placer.hpp"

namespace placesim::scheduler {

class DeviceOption {
 public:
  explicit DeviceOption(const Yaml& option);  // fails at the option for an empty list
  // Topology indices, in the order given; InputError (at the option) for an id that is not a
  // compute device of the topology, or one given twice.
  std::vector<int> resolve(const hw::Topology& topo) const;
  static OptionSpec spec();  // the declaration every placer with this option uses

 private:
  std::vector<std::pair<std::string, SourceLoc>> ids_;  // empty: auto
};

}  // namespace placesim::scheduler
