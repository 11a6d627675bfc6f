// The busy intervals of one device, for list schedulers with HEFT's insertion policy: where the
// earliest idle gap that fits a task starts, in O(log n) for n intervals.
//
// The intervals sit in a treap (a binary search tree balanced by random priorities) in order of
// (start, finish); intervals never overlap, so finishes are in that order too. Each interval
// keeps the gap before it (its start minus the previous interval's finish) and each subtree
// the largest gap in it, so the search descends to the first gap that is long enough instead of
// scanning every gap too short (HEFT with a long busy list was O(n) per query).
#pragma once

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
  struct Node {
    double start = 0, finish = 0;
    double before = 0;   // the previous interval's finish (meaningless for the first)
    double gap = 0;      // start - before, computed; -infinity for the first interval
    double max_gap = 0;  // the largest gap in this subtree
    std::uint32_t priority = 0;
    int left = -1, right = -1, size = 1;
  };

  int size(int t) const { return t < 0 ? 0 : nodes_[t].size; }
  void pull(int t);
  // Splits t into the intervals ordered <= (start, finish) and the rest.
  void split(int t, double start, double finish, int& le, int& gt);
  int merge(int a, int b);
  void set_before(int t, double before);  // of t's first interval, updating the maxima above it
  double last_of(int t) const;            // finish of t's last interval
  // The first interval at position >= from (counting from 0) whose gap is >= threshold, or -1;
  // `at` receives its position.
  int first_gap(int t, int offset, int from, double threshold, int& at) const;

  std::vector<Node> nodes_;
  int root_ = -1;
  double last_finish_ = 0;
  std::uint64_t random_ = 0x9E3779B97F4A7C15ull;  // a fixed seed: the same shape on every run
};

}  // namespace placesim::scheduler
