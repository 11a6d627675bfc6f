// Per constraint with slack, a bound on its load, so that a part's edges are rechecked without
// summing their loads (max_min.hpp, "Parts"): its load when it last gained its slack or was
// summed, plus every increase of a rate on it since (MaxMinSystem::set_rate). An edge whose bound
// is under the slack limit keeps its slack without its load being summed: on the tree half the
// edge checks' time went to those sums. A bound off from the load in the last bits only moves
// the decision for a load within rounding of the limit, which is 1e-9 of the capacity below it:
// the edge then has slack either way, and the rates are the same.
#pragma once

#include <vector>

#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class EdgeLoads {
 public:
  void add_constraint() {
    grew_.push_back(0);
    bound_.push_back(0);
  }
  double bound(ConstraintId c) const { return bound_[c]; }
  void set_bound(ConstraintId c, double load) { bound_[c] = load; }
  // A rate on edge c grew by `by` (its coefficient times the increase).
  void grow(ConstraintId c, double by) {
    bound_[c] += by;
    if (!grew_[c]) {
      grew_[c] = 1;
      grown_.push_back(c);
    }
  }
  // The edges where a rate grew in this fill, each once.
  const std::vector<ConstraintId>& grown() const { return grown_; }
  void clear_grown() {
    for (ConstraintId c : grown_) grew_[c] = 0;
    grown_.clear();
  }

 private:
  std::vector<double> bound_;
  std::vector<ConstraintId> grown_;
  std::vector<char> grew_;  // in grown_
};

}  // namespace placesim::engine
