#include "sim/engine/calendar.hpp"

#include <algorithm>

namespace placesim::engine {

void Calendar::renumber() {
  std::vector<Key> all;
  all.reserve(size_);
  for (std::vector<Key>& b : buckets_) {
    all.insert(all.end(), b.begin(), b.end());
    b.clear();
  }
  nonempty_.fill(0);
  peek_valid_ = false;
  std::sort(all.begin(), all.end());
  std::uint64_t seq = 0;
  for (Key& k : all) k = ((k >> 64) << 64) | (Key{seq++} << 32) | static_cast<std::uint32_t>(k);
  next_seq_ = seq;
  PLACESIM_ASSERT(next_seq_ < seq_limit_, "more pending events than sequence numbers");
  // `last_` keeps its time; its sequence bits drop to 0, below every renumbered key of that time.
  last_ = (last_ >> 64) << 64;
  for (Key k : all) insert(k);
}

}  // namespace placesim::engine
