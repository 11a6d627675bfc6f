// Asking the cache for what a loop will read some iterations ahead, where the loop meets its
// data in an order of its own (a constraint's variables, the activities a solve changed) and
// each read would otherwise be a miss of its own: asked for ahead, the misses overlap.
#pragma once

#include <cstddef>
#include <cstdint>

namespace placesim {

// How many places ahead the engine's loops ask (max_min_parts.cpp, max_min_fill.cpp,
// rate_groups.cpp) and the readers' name lookups (models::Graph::Lookahead): far enough ahead for
// a miss to land during the work on the places before it, near enough to stay in the cache.
inline constexpr std::size_t kPrefetchAhead = 8;

// Asks the cache for the line at `address`; a prefetch never faults, whatever it is given. The
// address passes through a volatile: GCC 12 at -O2 drops some prefetches whose address it loads
// under a condition (Calendar::prefetch's did, which cost the 50k-flow tree a quarter of its
// time; docs/engine-scale.md), and keeps them all this way.
inline void prefetch(std::uintptr_t address) {
  const volatile std::uintptr_t at = address;
  __builtin_prefetch(reinterpret_cast<const void*>(at));
}
inline void prefetch(const void* address) { prefetch(reinterpret_cast<std::uintptr_t>(address)); }

}  // namespace placesim
