#include "sim/engine/max_min_components.hpp"

#include <algorithm>

namespace placesim::engine {

// The executor schedules rate changes in this order, which orders the events of one instant.
// One part lies in one component, in id order. Each component searched gets the next epoch, so a
// variable's stamp is its component's place in that order: one sort by (stamp, id) orders them
// all (not a scan of the solved variables per component, which is quadratic when an instant
// changes thousands of small components, as every step of a ring collective on thousands of
// ranks does).
void ComponentOrder::order(const MaxMinProblem& problem, const std::vector<VariableId>& seed_vars,
                           const std::vector<ConstraintId>& seed_cons,
                           std::vector<VariableId>& vars) {
  const std::uint64_t first = epoch_ + 1;
  for (VariableId v : seed_vars) {
    if (problem.alive(v) && var_seen_[v] < first) collect(problem, v, -1);
  }
  for (ConstraintId c : seed_cons) {
    if (cons_seen_[c] < first) collect(problem, -1, c);
  }
  std::sort(vars.begin(), vars.end(), [this](VariableId a, VariableId b) {
    return var_seen_[a] != var_seen_[b] ? var_seen_[a] < var_seen_[b] : a < b;
  });
}

// Breadth-first search over variable -> constraint -> variable links; leaves the component's
// variables and constraints in comp_vars_ / comp_cons_ and stamps them epoch_.
void ComponentOrder::collect(const MaxMinProblem& problem, VariableId seed_var,
                             ConstraintId seed_cons) {
  comp_vars_.clear();
  comp_cons_.clear();
  ++epoch_;
  if (seed_var >= 0) {
    var_seen_[seed_var] = epoch_;
    comp_vars_.push_back(seed_var);
  } else {
    cons_seen_[seed_cons] = epoch_;
    comp_cons_.push_back(seed_cons);
  }
  std::size_t vi = 0, ci = 0;
  while (vi < comp_vars_.size() || ci < comp_cons_.size()) {
    for (; vi < comp_vars_.size(); ++vi) {
      for (const MaxMinProblem::Element& e : problem.var(comp_vars_[vi]).elems) {
        if (cons_seen_[e.c] != epoch_) {
          cons_seen_[e.c] = epoch_;
          comp_cons_.push_back(e.c);
        }
      }
    }
    for (; ci < comp_cons_.size(); ++ci) {
      for (const MaxMinProblem::Entry& en : problem.cons(comp_cons_[ci]).entries) {
        if (var_seen_[en.v] != epoch_) {
          var_seen_[en.v] = epoch_;
          comp_vars_.push_back(en.v);
        }
      }
    }
  }
}

}  // namespace placesim::engine
