// The event calendar: pending events ordered by (time, insertion sequence), as ns-3's EventKey
// and SST's activity queue do, so that events at one instant come out in the order they were
// scheduled and every run is deterministic. Time never goes back: scheduling before the last
// popped instant is a broken invariant and aborts.
//
// Indexed: every pending event has an id of the caller's (a small integer, such as a task id),
// unique among pending events, by which it can be moved to another instant or removed. So an
// activity whose rate changes keeps one completion event, moved, rather than leaving superseded
// ones behind: pending events stay bounded by the ids in use. A moved event takes a new
// sequence number, as a newly scheduled one would.
//
// Implementation: a radix heap (Ahuja, Mehlhorn, Orlin, Tarjan 1990), which fits exactly because
// the keys popped never decrease. Each event is one 128-bit key
//     time << 64 | seq << 32 | id
// (seq is unique, so keys are distinct and their order is (time, seq)). Bucket 0 holds keys equal
// to the last popped key `last`; bucket b >= 1 holds keys whose highest bit differing from
// `last` is bit b-1. push() is one append. pop() takes bucket 0, or else the lowest non-empty
// bucket: its minimum becomes `last` and its other keys move to strictly lower buckets, so each
// key moves at most 128 times and in practice a handful. Each id's (bucket, index) is kept as
// keys move, so removal is a swap with its bucket's last key. Measured against
// std::priority_queue in bench/bench_calendar.cpp (hold model, 1k to 1M pending events).
// top_time() finds the minimum without moving `last` (events may still be pushed between now and
// that minimum) and caches it for the next pop(). The 32-bit sequence is renumbered (order kept)
// in the rare case it runs out.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/prefetch.hpp"
#include "sim/core/time.hpp"

namespace placesim::engine {

class Calendar {
 public:
  struct Event {
    TimePs time;
    std::uint32_t id;
  };

  // Sequence numbers per 32-bit field; a smaller limit exists only to exercise renumbering.
  static constexpr std::uint64_t kSeqLimit = std::uint64_t{1} << 32;
  explicit Calendar(std::uint64_t seq_limit = kSeqLimit) : seq_limit_(seq_limit) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  // Time of the last popped event (0 before the first).
  TimePs now() const { return static_cast<TimePs>(last_ >> 64); }
  // Time of the next event (not empty). Events may still be pushed before it (not before now()).
  TimePs top_time() {
    PLACESIM_ASSERT(size_ > 0, "top of an empty calendar");
    if (!buckets_[0].empty()) return static_cast<TimePs>(buckets_[0].back() >> 64);
    if (!peek_valid_) find_min();
    return static_cast<TimePs>(peek_ >> 64);
  }

  // Room for ids below n at once, where the caller knows them (the executor: its tasks), rather
  // than growing the per-id index as larger ids arrive.
  void reserve_ids(std::size_t n) {
    if (n <= bucket_.size()) return;
    bucket_.resize(n, kNone);
    index_.resize(n, 0);
  }

  bool pending(std::uint32_t id) const { return id < bucket_.size() && bucket_[id] != kNone; }
  // Instant of id's pending event (pending(id)).
  TimePs time_of(std::uint32_t id) const {
    return static_cast<TimePs>(buckets_[bucket_[id]][index_[id]] >> 64);
  }

  // Schedules id, which has no pending event, at t.
  void push(TimePs t, std::uint32_t id) {
    PLACESIM_ASSERT(t >= now(), "event scheduled in the past: time would go back");
    PLACESIM_ASSERT(!pending(id), "a second pending event for one id");
    if (next_seq_ == seq_limit_) renumber();
    if (id >= bucket_.size()) {
      bucket_.resize(std::size_t{id} + 1, kNone);
      index_.resize(std::size_t{id} + 1, 0);
    }
    const Key k = next_key(t, id);
    insert(k);
    if (peek_valid_ && k < peek_) peek_ = k;
    ++size_;
  }

  // Moves id's pending event (pending(id)) to t, with a new sequence number: the same order as
  // erase(id) then push(t, id). In place when the new key falls in the same bucket (most moves
  // of an activity whose rate changed a little: its bucket spans the bits above the change),
  // which spares a removal's swap and the append, each a cache miss when thousands are pending.
  void move(TimePs t, std::uint32_t id) {
    PLACESIM_ASSERT(t >= now(), "event scheduled in the past: time would go back");
    PLACESIM_ASSERT(pending(id), "move of an id with no pending event");
    if (next_seq_ == seq_limit_) renumber();
    const Key k = next_key(t, id);
    Key& slot = buckets_[bucket_[id]][index_[id]];
    if (bucket_of(k) == bucket_[id]) {
      if (peek_valid_ && slot == peek_) peek_valid_ = false;
      slot = k;
    } else {
      erase(id);
      insert(k);
      ++size_;
    }
    if (peek_valid_ && k < peek_) peek_ = k;
  }

  // Asks the cache for id's pending event (if any; id below the ids reserved or used), which a
  // move() will soon read: a caller that moves thousands of events at one instant asks a few
  // ahead, so that their misses overlap; and for where the event is (prefetch_index) a few
  // further ahead, since prefetch() reads that. Without a branch, and the address worked out as
  // an integer (an id with no pending event points anywhere, which a prefetch allows).
  void prefetch(std::uint32_t id) const {
    const std::uint8_t b = bucket_[id];
    placesim::prefetch(reinterpret_cast<std::uintptr_t>(buckets_[b == kNone ? 0 : b].data()) +
                       std::uintptr_t{index_[id]} * sizeof(Key));
  }
  void prefetch_index(std::uint32_t id) const {
    placesim::prefetch(reinterpret_cast<std::uintptr_t>(bucket_.data()) + id);
    placesim::prefetch(reinterpret_cast<std::uintptr_t>(index_.data()) + std::uintptr_t{id} * sizeof(std::uint32_t));
  }

  // Removes id's pending event (pending(id)).
  void erase(std::uint32_t id) {
    std::vector<Key>& v = buckets_[bucket_[id]];
    const Key k = v[index_[id]];
    const int b = bucket_[id];
    v[index_[id]] = v.back();
    index_[static_cast<std::uint32_t>(v.back())] = index_[id];
    v.pop_back();
    if (v.empty()) nonempty_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
    bucket_[id] = kNone;
    if (peek_valid_ && k == peek_) peek_valid_ = false;
    --size_;
  }

  Event pop() {
    PLACESIM_ASSERT(size_ > 0, "pop from an empty calendar");
    if (buckets_[0].empty()) refill();
    const Key k = buckets_[0].back();
    buckets_[0].pop_back();
    if (buckets_[0].empty()) nonempty_[0] &= ~std::uint64_t{1};
    const auto id = static_cast<std::uint32_t>(k);
    bucket_[id] = kNone;
    --size_;
    return Event{static_cast<TimePs>(k >> 64), id};
  }

 private:
  __extension__ using Key = unsigned __int128;
  static constexpr int kBuckets = 129;
  static constexpr int kWords = (kBuckets + 63) / 64;
  static constexpr std::uint8_t kNone = 255;  // bucket_ of an id with no pending event

  Key next_key(TimePs t, std::uint32_t id) {
    return (Key{static_cast<std::uint64_t>(t)} << 64) | (Key{next_seq_++} << 32) | id;
  }
  int bucket_of(Key k) const {
    const Key x = k ^ last_;
    const auto hi = static_cast<std::uint64_t>(x >> 64), lo = static_cast<std::uint64_t>(x);
    if (hi != 0) return 129 - std::countl_zero(hi);
    if (lo != 0) return 65 - std::countl_zero(lo);
    return 0;
  }
  void insert(Key k) {
    const int b = bucket_of(k);
    const auto id = static_cast<std::uint32_t>(k);
    bucket_[id] = static_cast<std::uint8_t>(b);
    index_[id] = static_cast<std::uint32_t>(buckets_[b].size());
    buckets_[b].push_back(k);
    nonempty_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }
  int lowest_bucket() const {
    for (int w = 0; w < kWords; ++w) {
      if (nonempty_[w] != 0) return w * 64 + std::countr_zero(nonempty_[w]);
    }
    return -1;
  }
  // Sets peek_ to the smallest pending key: the minimum of the lowest non-empty bucket.
  void find_min() {
    const std::vector<Key>& b = buckets_[lowest_bucket()];
    Key m = b.front();
    for (Key k : b) m = k < m ? k : m;
    peek_ = m;
    peek_valid_ = true;
  }
  // Makes bucket 0 hold the smallest pending key (size_ > 0, bucket 0 empty): that key becomes
  // `last`, and every other key of its bucket, now differing from `last` only below that
  // bucket's bit, moves to a lower bucket.
  void refill() {
    if (!peek_valid_) find_min();
    peek_valid_ = false;
    const int from = lowest_bucket();
    std::vector<Key>& src = buckets_[from];
    last_ = peek_;
    nonempty_[from >> 6] &= ~(std::uint64_t{1} << (from & 63));
    for (Key k : src) insert(k);
    src.clear();
  }
  // Reassigns sequence numbers 0..n-1 in key order.
  void renumber();

  std::array<std::vector<Key>, kBuckets> buckets_;
  std::array<std::uint64_t, kWords> nonempty_{};
  Key last_ = 0;      // the last popped key
  Key peek_ = 0;      // the smallest pending key, when peek_valid_ (kept by top_time and push)
  bool peek_valid_ = false;
  std::size_t size_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t seq_limit_;
  std::vector<std::uint8_t> bucket_;  // per id: the bucket of its pending event, or kNone
  std::vector<std::uint32_t> index_;  // per id: its pending event's index in that bucket
};

}  // namespace placesim::engine
