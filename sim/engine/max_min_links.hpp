// Whether constraints are still linked through variables and constraints without slack, for
// the kept part (max_min_kept.hpp): after a removal it stays kept only when what the removed
// variable linked is shown to be still linked. Union-find over the constraints a check adds, each stamped
// with the check's epoch, then a search from the queued constraints that stops once all groups
// are joined, or gives up past a budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/max_min_parts.hpp"
#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class ConstraintLinks {
 public:
  void add_constraint() {
    seen_.push_back(0);
    root_.push_back(0);
    weight_.push_back(0);
  }

  // A new check (or a search behind the kept part): nothing met, queued or grouped yet.
  void start() {
    ++epoch_;
    queue_.clear();
    groups_ = 0;
  }
  // Queues c to be searched from, the first time it is met since start(); whether it was.
  bool queue(ConstraintId c) {
    if (seen_[c] == epoch_) return false;
    seen_[c] = epoch_;
    queue_.push_back(c);
    return true;
  }
  // The constraints queued, in order (it grows while a caller searches behind them).
  const std::vector<ConstraintId>& queued() const { return queue_; }
  // c, met, joins the check in root's group (its own when root == c).
  void add(ConstraintId c, ConstraintId root) {
    seen_[c] = epoch_;
    root_[c] = root;
    groups_ += root == c;
  }
  // Whether the groups added are all linked, searching at most `budget` entries.
  bool join(const MaxMinProblem& problem, const Parts& parts, std::size_t budget);

 private:
  void unite(ConstraintId a, ConstraintId b);
  ConstraintId find(ConstraintId c) {
    while (root_[c] != c) c = root_[c] = root_[root_[c]];
    return c;
  }
  void drop_largest(const MaxMinProblem& problem);

  std::uint64_t epoch_ = 0;
  std::vector<std::uint64_t> seen_;
  std::vector<ConstraintId> root_;
  std::vector<std::size_t> weight_;  // per group's root: its constraints' entries
  std::vector<ConstraintId> queue_;  // the constraints to join, searched from in order
  std::vector<ConstraintId> met_;    // met by the search: searched from next
  std::size_t groups_ = 0;
};

}  // namespace placesim::engine
