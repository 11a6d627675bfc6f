#include "sim/engine/max_min.hpp"

#include <cmath>

#include "sim/core/error.hpp"

namespace placesim::engine {

ConstraintId MaxMinSystem::add_constraint(double capacity) {
  PLACESIM_ASSERT(capacity > 0 && std::isfinite(capacity), "constraint capacity must be positive and finite");
  full_.push_back(0);
  level_.push_back(0);
  parts_.add_constraint();
  edges_.add_constraint();
  fill_.add_constraint();
  record_.add_constraint();
  kept_.add_constraint();
  listing_.add_constraint();
  return problem_.add_constraint(capacity);
}

VariableId MaxMinSystem::add_variable(double bound) {
  PLACESIM_ASSERT(bound > 0, "variable bound must be positive");
  const VariableId v = problem_.add_variable(bound);
  if (static_cast<std::size_t>(v) == rates_.size()) add_variable_slot();
  rates_[v] = 0;
  record_.note_modified(v, solve_serial_, problem_.variable_count());
  mark_var(v);
  return v;
}

// Each part's state for a new variable id.
void MaxMinSystem::add_variable_slot() {
  rates_.push_back(0);
  fixed_by_.push_back(-1);
  parts_.add_variable();
  fill_.add_variable();
  record_.add_variable();
  kept_.add_variable();
  listing_.add_variable(problem_.variable_count());
}

void MaxMinSystem::expand(VariableId v, ConstraintId c, double coefficient) {
  PLACESIM_ASSERT(problem_.alive(v), "expand on a removed variable");
  PLACESIM_ASSERT(coefficient >= 0 && std::isfinite(coefficient), "coefficient must be finite and >= 0");
  if (coefficient == 0) return;
  mark_var(v);
  record_.note_changed(c, solve_serial_);
  record_.note_modified(v, solve_serial_, problem_.variable_count());
  const bool had_slack = parts_.slack(c);
  // Its load grows: it will likely lose its slack, so fill through it at once.
  parts_.set_slack(c, false);
  const bool added = problem_.expand(v, c, coefficient);
  if (kept_.active()) kept_.after_expand(v, c, had_slack, added);
}

void MaxMinSystem::remove_variable(VariableId v) {
  PLACESIM_ASSERT(problem_.alive(v), "variable removed twice");
  drop_elements(v);
  problem_.free_variable(v);
}

// What remove_variable(v) and an add_variable() that reuses v do, but for the list of free ids.
void MaxMinSystem::reset_variable(VariableId v) {
  PLACESIM_ASSERT(problem_.alive(v), "reset of a removed variable");
  drop_elements(v);
  record_.note_modified(v, solve_serial_, problem_.variable_count());
  mark_var(v);
}

// v's elements leave the problem, its constraints changed; its rate is 0.
void MaxMinSystem::drop_elements(VariableId v) {
  problem_.leave_constraints(v);
  for (const Element& e : problem_.var(v).elems) {
    record_.note_changed(e.c, solve_serial_);
    mark_cons(e.c);
  }
  if (kept_.holds(v)) kept_.after_removal(problem_, parts_, v);
  problem_.clear_elements(v);
  rates_[v] = 0;
}

void MaxMinSystem::solve_all() {
  record_.drop();  // the reference: every component filled from scratch
  kept_.drop();
  for (VariableId v = 0; v < static_cast<VariableId>(problem_.variable_count()); ++v) {
    if (problem_.alive(v)) mark_var(v);
  }
  for (ConstraintId c = 0; c < static_cast<ConstraintId>(problem_.constraint_count()); ++c) {
    mark_cons(c);
    parts_.set_slack(c, false);
  }
  solve();
}

void MaxMinSystem::solve() {
  ++solve_serial_;
  listing_.start(solve_serial_);
  const std::uint64_t first = parts_.epoch() + 1;  // parts of this solve have epochs from here on
  for (VariableId v : dirty_vars_) {
    if (problem_.alive(v) && parts_.var_epoch(v) < first) solve_part(v, -1);
  }
  for (ConstraintId c : dirty_cons_) {
    if (parts_.cons_epoch(c) < first) solve_part(-1, c);
  }
  // Every part's changes, listed at once: in id order across parts (solved_variables).
  listing_.list_changed();
  dirty_vars_.clear();
  dirty_cons_.clear();
}

}  // namespace placesim::engine
