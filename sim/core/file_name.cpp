#include "sim/core/file_name.hpp"

#include <mutex>
#include <unordered_set>

namespace placesim {

const std::string FileName::kEmpty;

// Readers on several threads (a sweep's points) intern names at once: one lock over one set.
// The set is never destroyed, so names stay valid in static destructors too.
FileName::FileName(std::string_view name) {
  if (name.empty()) return;
  static std::mutex lock;
  static auto* names = new std::unordered_set<std::string>;
  const std::lock_guard<std::mutex> hold(lock);
  name_ = &*names->emplace(name).first;
}

}  // namespace placesim
