// Names to their indices, for names held elsewhere (a graph's nodes): a flat open-addressing
// table of (hash, index) with linear probing, at most half full. A lookup hashes the name once
// and compares it only against names whose 32-bit hash matches, so reading a plan that names
// 100k ops (300k lookups, most of them a miss in the caches of a node-based map) costs a probe
// or two into one array. Nothing is copied: `name_of(i)` gives the name of index i.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "sim/core/prefetch.hpp"

namespace placesim {

class NameIndex {
 public:
  // Room for n names without growing.
  void reserve(std::size_t n) {
    std::size_t want = 16;
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) rehash(want);
  }
  std::size_t size() const { return size_; }
  void clear() {
    slots_.clear();
    size_ = 0;
    bound_ = nullptr;
    bound_count_ = 0;
  }

  // The owner's list the index was built over, and its length then: a lookup trusts the index
  // only while the list is that very one (not a copy, no element added), and scans otherwise.
  void bind(const void* list, std::size_t count) {
    bound_ = list;
    bound_count_ = count;
  }
  bool bound_to(const void* list, std::size_t count) const { return list != nullptr && list == bound_ && count == bound_count_; }

  // Adds `name` as index i (below 2^32 - 1); if it is there already, returns the index it has
  // (and adds nothing), else -1.
  template <class NameOf>
  std::int64_t insert(std::string_view name, std::uint32_t i, const NameOf& name_of) {
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    const std::uint32_t h = hash(name);
    for (std::size_t s = h & mask();; s = (s + 1) & mask()) {
      Slot& slot = slots_[s];
      if (slot.index == kEmpty) {
        slot = Slot{h, i};
        ++size_;
        return -1;
      }
      if (slot.hash == h && name_of(slot.index) == name) return slot.index;
    }
  }

  // The index of `name`, or -1.
  template <class NameOf>
  std::int64_t find(std::string_view name, const NameOf& name_of) const {
    if (slots_.empty()) return -1;
    const std::uint32_t h = hash(name);
    for (std::size_t s = h & mask();; s = (s + 1) & mask()) {
      const Slot& slot = slots_[s];
      if (slot.index == kEmpty) return -1;
      if (slot.hash == h && name_of(slot.index) == name) return slot.index;
    }
  }

  // For a reader that knows the names it will look up next: a lookup is two cache misses in a
  // row (the slot, then the named thing, to compare names), which overlap with other work when
  // asked for ahead. `ask_slot` asks for the slot of a name's hash; once that has arrived,
  // `first_candidate` gives the index its slot names when the hashes agree (-1 else), so the
  // caller can ask for that thing too. Neither changes a lookup's result.
  static std::uint32_t hash(std::string_view s) { return static_cast<std::uint32_t>(std::hash<std::string_view>{}(s)); }
  void ask_slot(std::uint32_t h) const {
    if (!slots_.empty()) prefetch(&slots_[h & mask()]);
  }
  std::int64_t first_candidate(std::uint32_t h) const {
    if (slots_.empty()) return -1;
    const Slot& slot = slots_[h & mask()];
    return slot.index != kEmpty && slot.hash == h ? static_cast<std::int64_t>(slot.index) : -1;
  }

 private:
  static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t index = kEmpty;
  };
  std::size_t mask() const { return slots_.size() - 1; }
  void rehash(std::size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    for (const Slot& slot : old) {
      if (slot.index == kEmpty) continue;
      std::size_t s = slot.hash & mask();
      while (slots_[s].index != kEmpty) s = (s + 1) & mask();
      slots_[s] = slot;
    }
  }

  std::vector<Slot> slots_;  // a power of two of them, or none
  std::size_t size_ = 0;
  const void* bound_ = nullptr;  // bind()
  std::size_t bound_count_ = 0;
};

}  // namespace placesim
