#include "scheduler/placers/device_option.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace placesim::scheduler {

DeviceOption::DeviceOption(const Yaml& option) {
  if (option.is_scalar() && option.str() == "auto") return;
  for (const Yaml& d : option.items()) ids_.emplace_back(d.str(), d.loc());
  if (ids_.empty()) option.fail("expected at least one device");
}

std::vector<int> DeviceOption::resolve(const hw::Topology& topo) const {
  if (ids_.empty()) return default_devices(topo);
  std::vector<int> out;
  for (auto& [id, loc] : ids_) {
    const int i = topo.find(id);
    if (i < 0 || !topo.devices[i].is_compute())
      throw InputError(loc, fmt::format("'{}' is not a compute device of '{}'", id, topo.name));
    if (std::find(out.begin(), out.end(), i) != out.end()) throw InputError(loc, fmt::format("'{}' is listed twice", id));
    out.push_back(i);
  }
  return out;
}

OptionSpec DeviceOption::spec() {
  return {"devices", "auto", "list of device ids, or auto: every GPU (every compute device if none)"};
}

}  // namespace placesim::scheduler
