#include "app/explore/topology_cache.hpp"

#include <algorithm>

#include "hw/topology_yaml.hpp"

namespace placesim::explore {

std::shared_ptr<const hw::Topology> TopologyCache::get(const Yaml& hardware) {
  // The text decides: a path in it is resolved against the scenario's file, the same for every
  // point (a swept path was made absolute), so the same text is the same machine.
  const std::string key = yaml_to_string(hardware.node());
  auto find = [&] {
    return std::find_if(recent_.begin(), recent_.end(), [&](const auto& kept) { return kept.first == key; });
  };
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = find(); it != recent_.end()) {
      std::rotate(recent_.begin(), it, it + 1);
      return recent_.front().second;
    }
  }
  // Loaded without the lock: other points' machines need not wait for this one.
  auto loaded = std::make_shared<const hw::Topology>(hw::load_topology(hardware));
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = find(); it != recent_.end()) return it->second;  // another thread was first
  recent_.insert(recent_.begin(), {key, loaded});
  if (recent_.size() > kKept) recent_.pop_back();
  return loaded;
}

}  // namespace placesim::explore
