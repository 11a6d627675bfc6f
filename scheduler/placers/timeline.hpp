// The busy intervals of one device, for list schedulers with HEFT's insertion policy: where the
// earliest idle gap that fits a task starts, in O(B + log n) for n intervals (B = kBlock);
// adding an interval costs as much, plus O(n / B) when its block is full and splits (at most
// once every B / 2 additions to a block).
//
// The intervals are kept in order of (start, finish) in blocks of at most kBlock consecutive
// intervals, each block a contiguous array; intervals never overlap, so finishes are in that
// order too. A segment tree over the blocks holds each block's largest gap (an interval's start
// minus the previous interval's finish), so the search scans only the block where `ready`
// falls and the first later block with a gap long enough, and skips every block in between in
// O(log n) (HEFT with a long busy list was O(n) per query). Contiguous blocks, not a tree of
// intervals: a list scheduler asks every device for every op, and a pointer-chasing descent
// per query cost more than the scans it saved (HEFT on 64 GPUs ran 3x slower with a treap).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace placesim::scheduler {

class Timeline {
 public:
  // Earliest start >= ready of a task of `dur` seconds: with insertion, the start of the first
  // idle gap it fits (the first interval is preceded by a gap from `ready`); else, or when no
  // gap fits, the later of ready and the end of the last interval. This is exactly, to the bit,
  // what scanning the intervals in order with `s + dur <= next start` gives.
  double earliest_start(double ready, double dur, bool insertion) const;
  void add(double start, double finish);
  double available() const { return last_finish_; }

 private:
  static constexpr int kBlock = 32;
  struct Block {
    int size = 0;
    std::array<double, kBlock> start, finish;  // apart: the search reads finishes only
  };

  const Block& block(std::size_t b) const { return pool_[order_[b]]; }
  // The largest gap in block b, the gap before its first interval included (none before the
  // first block).
  double max_gap(std::size_t b) const;
  void set_gap(std::size_t b);  // leaf b of the segment tree and the maxima above it
  void rebuild_tree();
  // The first block at or after `from` whose largest gap is >= threshold, or -1.
  int first_block(std::size_t from, double threshold) const;
  void split(std::size_t b);  // moves the upper half of full block b into a new block b + 1

  std::vector<Block> pool_;        // blocks in the order they were made
  std::vector<int> order_;         // pool_ indices in time order
  std::vector<double> last_;       // per block in time order, the finish of its last interval
  std::vector<double> tree_;       // segment tree of max_gap, leaves at [leaves_, 2 leaves_)
  std::size_t leaves_ = 0;
  double last_finish_ = 0;
};

}  // namespace placesim::scheduler
