// Ids grouped under keys as compressed rows: the ids under key k are ids[start[k], start[k + 1]),
// ascending. Built by a counting sort in two passes over the (key, id) pairs, so a row is a slice
// of one array instead of a vector of its own (an allocation, and a cache miss to reach it). A
// graph's edges by node (models/graph.hpp) and a run's buffers by task (sim/engine/memory_ledger)
// are kept so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace placesim {

struct IdRows {
  std::vector<std::int32_t> start;  // keys + 1 entries; empty when no id was listed (every row empty)
  std::vector<std::int32_t> ids;

  std::span<const std::int32_t> row(std::size_t key) const {
    if (start.empty()) return {};
    return {ids.data() + start[key], ids.data() + start[key + 1]};
  }

  // The rows of keys 0..keys-1 from the pairs `pairs(emit)` gives by calling emit(key, id) for
  // each, ids ascending; pairs is called twice and must give the same pairs both times. With no
  // pair at all nothing is allocated.
  template <class Pairs>
  static IdRows build(std::size_t keys, const Pairs& pairs) {
    IdRows r;
    std::size_t n = 0;
    pairs([&n](std::size_t, std::int32_t) { ++n; });
    if (n == 0) return r;
    r.start.assign(keys + 1, 0);
    pairs([&r](std::size_t key, std::int32_t) { ++r.start[key + 1]; });
    for (std::size_t k = 0; k < keys; ++k) r.start[k + 1] += r.start[k];
    r.ids.resize(n);
    std::vector<std::int32_t> at(r.start.begin(), r.start.end() - 1);
    pairs([&](std::size_t key, std::int32_t id) { r.ids[static_cast<std::size_t>(at[key]++)] = id; });
    return r;
  }
};

}  // namespace placesim
