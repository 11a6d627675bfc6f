// The state of one fill (MaxMinSystem::fill_part, max_min_fill.cpp): per constraint R_c, U_c,
// its unfixed variables and R_c / U_c; per variable whether it is fixed; the heap of constraints
// and the bounded variables by bound. Indexed by id and reused across solves (only the current
// part's entries are meaningful), so a fill allocates nothing. Its functions are inline: the
// fill's loop calls them per step and per constraint a step touches.
//
// Cost of a fill: linear in the part's elements plus a heap operation per constraint that
// saturates or runs out of variables. Each constraint keeps its variables sorted by id, so no
// per-solve index is built. The heap is lazy: in exact arithmetic fixing variables never lowers
// a constraint's R_c / U_c, so a key that grew stays in place as a lower bound and is brought up
// to date only when it reaches the top; one that fell (rounding) is pushed again with its new
// key, its old entry dropped when it surfaces. A constraint with no variable left is dropped
// when it surfaces too, and the fill stops once every variable is fixed. The constraint popped
// is thus the one with the smallest current (R_c / U_c, id), as with every key kept current.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class FillState {
 public:
  using Entry = MaxMinProblem::Entry;
  // A constraint's state after a step, as a fill's record logs it (max_min_replay.hpp).
  struct Snapshot {
    ConstraintId c;
    std::int32_t unfixed;
    double remaining, usage, ratio;
  };
  struct HeapEntry {
    double key;
    ConstraintId c;
    // (key, c) in order, computed without a branch: which of two children is smaller follows no
    // pattern a predictor learns, and the heap's comparisons were a third of a fill's time.
    bool operator<(const HeapEntry& o) const { return (key < o.key) | ((key == o.key) & (c < o.c)); }
  };

  void add_variable() { fixed_.push_back(0); }
  void add_constraint() {
    cons_.emplace_back();
    key_.push_back(0);
  }

  // A new fill of `vars` (ascending): none fixed (a new fill number); the bounded ones, by bound,
  // if any is live.
  void start(const MaxMinProblem& problem, const std::vector<VariableId>& vars) {
    if (++fill_ == 0) {  // numbers wrap after 255 fills: every variable's is cleared
      std::fill(fixed_.begin(), fixed_.end(), 0);
      fill_ = 1;
    }
    bounded_.clear();
    next_bounded_ = 0;
    if (problem.bounded_live() == 0) return;
    for (VariableId v : vars) {
      if (problem.var(v).bound < kInf) bounded_.emplace_back(problem.var(v).bound, v);
    }
    std::sort(bounded_.begin(), bounded_.end());
  }
  // c before any step: all of `entries` unfixed, R_c its capacity, U_c `usage`.
  void reset(ConstraintId c, double capacity, const std::vector<Entry>& entries, double usage) {
    cons_[c].remaining = capacity;
    cons_[c].unfixed = static_cast<std::int32_t>(entries.size());
    cons_[c].usage = usage;
    if (!entries.empty()) update_ratio(c, entries);
  }
  // R_c only: c has no variable (max_min_fill.cpp, solve_lone).
  void set_remaining(ConstraintId c, double remaining) { cons_[c].remaining = remaining; }

  double remaining(ConstraintId c) const { return cons_[c].remaining; }
  std::int32_t unfixed(ConstraintId c) const { return cons_[c].unfixed; }
  double ratio(ConstraintId c) const { return cons_[c].ratio; }
  bool fixed(VariableId v) const { return fixed_[v] == fill_; }
  void mark_fixed(VariableId v) { fixed_[v] = fill_; }
  Snapshot snapshot(ConstraintId c) const {
    return Snapshot{c, cons_[c].unfixed, cons_[c].remaining, cons_[c].usage, cons_[c].ratio};
  }
  void restore(const Snapshot& s) {
    cons_[s.c].remaining = s.remaining;
    cons_[s.c].usage = s.usage;
    cons_[s.c].unfixed = s.unfixed;
    cons_[s.c].ratio = s.ratio;
  }

  // A variable of c with coefficient a fixed at x: R_c and U_c lose its share.
  void subtract(ConstraintId c, double a, double x) {
    cons_[c].remaining -= a * x;
    cons_[c].usage -= a;
    --cons_[c].unfixed;
  }
  // The same in this step (the constraints it touched are settled at its end).
  void take(ConstraintId c, double a, double x) {
    subtract(c, a, x);
    if (!cons_[c].touched) {
      cons_[c].touched = 1;
      touched_.push_back(c);
    }
  }
  const std::vector<ConstraintId>& touched() const { return touched_; }
  // A touched constraint at the step's end: its ratio brought up to date, and pushed again when
  // it fell below its key.
  void settle(ConstraintId c, const std::vector<Entry>& entries) {
    cons_[c].touched = 0;
    if (cons_[c].unfixed > 0) {  // else dropped when it surfaces
      update_ratio(c, entries);
      if (cons_[c].ratio < key_[c]) {
        key_[c] = cons_[c].ratio;
        heap_push(HeapEntry{key_[c], c});
      }
    }
  }
  void clear_touched() { touched_.clear(); }

  // R_c / U_c into its ratio (`entries`: c's).
  void update_ratio(ConstraintId c, const std::vector<Entry>& entries) {
    if (!(cons_[c].usage > 0)) {
      // U_c is kept by subtraction; should rounding leave it non-positive while variables
      // remain, sum it again from the remaining variables (in id order).
      double u = 0;
      for (const Entry& en : entries) {
        if (!fixed(en.v)) u += en.a;
      }
      cons_[c].usage = u;
    }
    cons_[c].ratio = cons_[c].remaining / cons_[c].usage;
  }

  const std::vector<std::pair<double, VariableId>>& bounded() const { return bounded_; }
  // The unfixed variable with the smallest bound, (+inf, -1) when none is left.
  std::pair<double, VariableId> next_bounded() {
    while (next_bounded_ < bounded_.size() && fixed(bounded_[next_bounded_].second)) {
      ++next_bounded_;
    }
    if (next_bounded_ == bounded_.size()) return {kInf, -1};
    return bounded_[next_bounded_];
  }

  // `entries`' variables left unfixed, in their order, into unfixed_var(k) for k below the count
  // returned. Without a branch on each (about every second one is fixed already, in no pattern
  // a predictor learns): fixing one fixes no other of them, so these are the variables and the
  // order of a test-and-fix pass.
  std::size_t gather_unfixed(const std::vector<Entry>& entries) {
    if (unfixed_vars_.size() < entries.size()) unfixed_vars_.resize(entries.size());
    std::size_t n = 0;
    for (const Entry& en : entries) {
      unfixed_vars_[n] = en.v;
      n += !fixed(en.v);
    }
    return n;
  }
  VariableId unfixed_var(std::size_t k) const { return unfixed_vars_[k]; }

  // The heap of `cons` (those with variables left), keyed by their ratios.
  void build_heap(const std::vector<ConstraintId>& cons) {
    heap_.clear();
    for (ConstraintId c : cons) {
      if (cons_[c].unfixed == 0) continue;
      key_[c] = cons_[c].ratio;
      heap_.push_back(HeapEntry{key_[c], c});
    }
    for (auto pos = static_cast<std::ptrdiff_t>(heap_.size()) / 2 - 1; pos >= 0; --pos) {
      heap_sift_down(static_cast<std::size_t>(pos));
    }
  }
  // The constraint with the smallest current (R_c / U_c, id) and its key, or key +inf when none
  // has variables left. Drops entries of constraints with no variable left and superseded
  // entries off the top, and brings a stale top key up to date, until the top is that one.
  HeapEntry heap_top() {
    while (!heap_.empty()) {
      HeapEntry& top = heap_.front();
      if (cons_[top.c].unfixed == 0 || top.key != key_[top.c]) {
        heap_pop();
      } else if (cons_[top.c].ratio != top.key) {
        top.key = key_[top.c] = cons_[top.c].ratio;
        heap_sift_down(0);
      } else {
        return top;
      }
    }
    return HeapEntry{kInf, -1};
  }

 private:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  void heap_push(HeapEntry e) {
    heap_.push_back(e);
    heap_sift_up(heap_.size() - 1);
  }
  void heap_sift_up(std::size_t pos) {
    const HeapEntry e = heap_[pos];
    while (pos > 0 && e < heap_[(pos - 1) / 2]) {
      heap_[pos] = heap_[(pos - 1) / 2];
      pos = (pos - 1) / 2;
    }
    heap_[pos] = e;
  }
  void heap_sift_down(std::size_t pos) {
    const HeapEntry e = heap_[pos];
    const std::size_t n = heap_.size();
    for (;;) {
      std::size_t child = 2 * pos + 1;
      if (child >= n) break;
      if (child + 1 < n) child += heap_[child + 1] < heap_[child];
      if (!(heap_[child] < e)) break;
      heap_[pos] = heap_[child];
      pos = child;
    }
    heap_[pos] = e;
  }
  // Floyd's deletion: the hole at the top goes down along the smaller children to a leaf, one
  // comparison a level, and the last entry goes up from there (rarely far).
  void heap_pop() {
    const HeapEntry last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == 0) return;
    std::size_t pos = 0;
    for (std::size_t child = 1; child < n; child = 2 * pos + 1) {
      if (child + 1 < n) child += heap_[child + 1] < heap_[child];
      heap_[pos] = heap_[child];
      pos = child;
    }
    heap_[pos] = last;
    heap_sift_up(pos);
  }

  // Per constraint, what a step reads and writes of it together: a fill's resets and steps meet
  // constraints in no order, and one line each instead of one per array (five, as they were) took
  // a ninth off the first-level cache misses of `placesim simulate` on the mixed tree at 10k
  // flows (cachegrind: 45.9M -> 40.8M; CPU time -4%).
  struct alignas(32) Cons {
    double remaining = 0;       // R_c
    double usage = 0;           // U_c
    double ratio = 0;           // R_c / U_c, current
    std::int32_t unfixed = 0;   // unfixed variables left in c
    char touched = 0;           // in touched_
  };
  std::vector<Cons> cons_;
  std::vector<double> key_;                // key of c's live heap entry: <= ratio (lazy)
  // Per variable, the number of the fill that fixed it last: fixed in this fill when it is fill_.
  // A pass clearing a flag for each of the part's variables at every fill was 1% of `placesim
  // simulate`'s instructions on the mixed tree at 10k flows, and a cache miss for most of them.
  std::vector<std::uint8_t> fixed_;
  std::uint8_t fill_ = 0;
  std::vector<ConstraintId> touched_;      // constraints changed by the current step
  std::vector<VariableId> unfixed_vars_;   // a saturated constraint's variables left to fix
  std::vector<HeapEntry> heap_;  // min-heap; an entry whose key is not key_[c] is superseded
  std::vector<std::pair<double, VariableId>> bounded_;  // (bound, variable), ascending
  std::size_t next_bounded_ = 0;           // bounded_ before it are fixed
};

}  // namespace placesim::engine
