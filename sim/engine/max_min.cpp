#include "sim/engine/max_min.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/error.hpp"

namespace placesim::engine {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Collects the ids stamped `epoch` in ascending order into `out`, which holds them unordered:
// by a sort, or by a scan of all ids when they are a large share of them (cheaper, same order).
void sort_ids(std::vector<std::int32_t>& out, const std::vector<std::uint64_t>& seen, std::uint64_t epoch) {
  if (out.size() * 16 < seen.size()) {
    std::sort(out.begin(), out.end());
    return;
  }
  out.clear();
  for (std::size_t id = 0; id < seen.size(); ++id) {
    if (seen[id] == epoch) out.push_back(static_cast<std::int32_t>(id));
  }
}

}  // namespace

ConstraintId MaxMinSystem::add_constraint(double capacity) {
  PLACESIM_ASSERT(capacity > 0 && std::isfinite(capacity), "constraint capacity must be positive and finite");
  cons_.push_back(Cons{capacity, 0.0, {}});
  cons_seen_.push_back(0);
  cons_local_.push_back(-1);
  return static_cast<ConstraintId>(cons_.size() - 1);
}

VariableId MaxMinSystem::add_variable(double bound) {
  PLACESIM_ASSERT(bound > 0, "variable bound must be positive");
  VariableId v;
  if (!free_vars_.empty()) {
    v = free_vars_.back();
    free_vars_.pop_back();
  } else {
    v = static_cast<VariableId>(vars_.size());
    vars_.emplace_back();
    var_seen_.push_back(0);
  }
  Var& var = vars_[v];
  var.bound = bound;
  var.rate = 0;
  var.alive = true;
  mark_var(v);
  return v;
}

void MaxMinSystem::expand(VariableId v, ConstraintId c, double coefficient) {
  PLACESIM_ASSERT(vars_[v].alive, "expand on a removed variable");
  PLACESIM_ASSERT(coefficient >= 0 && std::isfinite(coefficient), "coefficient must be finite and >= 0");
  if (coefficient == 0) return;
  Var& var = vars_[v];
  for (VarElement& e : var.elems) {
    if (e.c == c) {
      e.a += coefficient;
      mark_var(v);
      return;
    }
  }
  Cons& cons = cons_[c];
  var.elems.push_back(VarElement{c, coefficient, static_cast<std::int32_t>(cons.entries.size())});
  cons.entries.push_back(ConsEntry{v, static_cast<std::int32_t>(var.elems.size() - 1)});
  mark_var(v);
}

void MaxMinSystem::remove_variable(VariableId v) {
  Var& var = vars_[v];
  PLACESIM_ASSERT(var.alive, "variable removed twice");
  for (const VarElement& e : var.elems) {
    std::vector<ConsEntry>& entries = cons_[e.c].entries;
    const ConsEntry moved = entries.back();
    entries[e.pos] = moved;
    vars_[moved.v].elems[moved.elem].pos = e.pos;
    entries.pop_back();
    mark_cons(e.c);
  }
  var.elems.clear();
  var.alive = false;
  var.rate = 0;
  free_vars_.push_back(v);
}

double MaxMinSystem::rate(VariableId v) const { return vars_[v].rate; }

double MaxMinSystem::load(ConstraintId c) const { return cons_[c].load; }

void MaxMinSystem::mark_var(VariableId v) { dirty_vars_.push_back(v); }

void MaxMinSystem::mark_cons(ConstraintId c) { dirty_cons_.push_back(c); }

void MaxMinSystem::solve_all() {
  for (VariableId v = 0; v < static_cast<VariableId>(vars_.size()); ++v) {
    if (vars_[v].alive) mark_var(v);
  }
  for (ConstraintId c = 0; c < static_cast<ConstraintId>(cons_.size()); ++c) mark_cons(c);
  solve();
}

void MaxMinSystem::solve() {
  solved_vars_.clear();
  solved_cons_.clear();
  solve_first_epoch_ = epoch_ + 1;
  for (VariableId v : dirty_vars_) {
    if (vars_[v].alive && var_seen_[v] < solve_first_epoch_) {
      collect_component(v, -1);
      solve_component();
    }
  }
  for (ConstraintId c : dirty_cons_) {
    if (cons_seen_[c] >= solve_first_epoch_) continue;
    if (cons_[c].entries.empty()) {  // a component of one idle constraint
      cons_seen_[c] = ++epoch_;
      cons_[c].load = 0;
      solved_cons_.push_back(c);
      continue;
    }
    collect_component(-1, c);
    solve_component();
  }
  dirty_vars_.clear();
  dirty_cons_.clear();
}

// Breadth-first search over variable -> constraint -> variable links; leaves the component's
// variables and constraints in comp_vars_ / comp_cons_, each sorted by id.
void MaxMinSystem::collect_component(VariableId seed_var, ConstraintId seed_cons) {
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
      for (const VarElement& e : vars_[comp_vars_[vi]].elems) {
        if (cons_seen_[e.c] != epoch_) {
          cons_seen_[e.c] = epoch_;
          comp_cons_.push_back(e.c);
        }
      }
    }
    for (; ci < comp_cons_.size(); ++ci) {
      for (const ConsEntry& en : cons_[comp_cons_[ci]].entries) {
        if (var_seen_[en.v] != epoch_) {
          var_seen_[en.v] = epoch_;
          comp_vars_.push_back(en.v);
        }
      }
    }
  }
  sort_ids(comp_vars_, var_seen_, epoch_);
  sort_ids(comp_cons_, cons_seen_, epoch_);
}

// The constraints' heap, indexed: (ratio, local id) ascending, so ties go to the lower id.
bool MaxMinSystem::heap_before(std::int32_t x, std::int32_t y) const {
  return ratio_[x] != ratio_[y] ? ratio_[x] < ratio_[y] : x < y;
}

void MaxMinSystem::heap_sift_up(std::int32_t pos) {
  const std::int32_t i = heap_[pos];
  while (pos > 0) {
    const std::int32_t parent = (pos - 1) / 2;
    if (!heap_before(i, heap_[parent])) break;
    heap_[pos] = heap_[parent];
    heap_pos_[heap_[pos]] = pos;
    pos = parent;
  }
  heap_[pos] = i;
  heap_pos_[i] = pos;
}

void MaxMinSystem::heap_sift_down(std::int32_t pos) {
  const std::int32_t i = heap_[pos];
  const auto n = static_cast<std::int32_t>(heap_.size());
  for (;;) {
    std::int32_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_before(heap_[child + 1], heap_[child])) ++child;
    if (!heap_before(heap_[child], i)) break;
    heap_[pos] = heap_[child];
    heap_pos_[heap_[pos]] = pos;
    pos = child;
  }
  heap_[pos] = i;
  heap_pos_[i] = pos;
}

void MaxMinSystem::heap_remove(std::int32_t i) {
  const std::int32_t pos = heap_pos_[i];
  heap_pos_[i] = -1;
  const std::int32_t last = heap_.back();
  heap_.pop_back();
  if (last == i) return;
  heap_[pos] = last;
  heap_pos_[last] = pos;
  heap_sift_up(pos);
  heap_sift_down(heap_pos_[last]);
}

void MaxMinSystem::update_ratio(std::int32_t i) {
  if (!(usage_[i] > 0)) {
    // U_c is kept by subtraction; should rounding leave it non-positive while variables remain,
    // sum it again from the remaining variables (in id order).
    double u = 0;
    for (std::int32_t k = csr_start_[i]; k < csr_start_[i + 1]; ++k) {
      if (!fixed_[csr_vars_[k]]) u += csr_a_[k];
    }
    usage_[i] = u;
  }
  ratio_[i] = remaining_[i] / usage_[i];
}

// A constraint still in the heap (it keeps unfixed variables, so it has been there since the
// start) after its R_c or U_c changed: moved up or down to its new key.
void MaxMinSystem::push_ratio(std::int32_t i) {
  const double old = ratio_[i];
  update_ratio(i);
  if (ratio_[i] < old) {
    heap_sift_up(heap_pos_[i]);
  } else {
    heap_sift_down(heap_pos_[i]);
  }
}

void MaxMinSystem::fix_variable(std::int32_t j, double value) {
  const Var& var = vars_[comp_vars_[j]];
  const double x = std::min(value, var.bound);
  fixed_[j] = 1;
  vars_[comp_vars_[j]].rate = x;
  for (const VarElement& e : var.elems) {
    const std::int32_t i = cons_local_[e.c];
    remaining_[i] -= e.a * x;
    usage_[i] -= e.a;
    --unfixed_[i];
    if (!is_touched_[i]) {
      is_touched_[i] = 1;
      touched_.push_back(i);
    }
  }
}

void MaxMinSystem::solve_component() {
  const auto nc = static_cast<std::int32_t>(comp_cons_.size());
  const auto nv = static_cast<std::int32_t>(comp_vars_.size());
  remaining_.assign(nc, 0.0);
  usage_.assign(nc, 0.0);
  unfixed_.assign(nc, 0);
  ratio_.assign(nc, 0.0);
  heap_pos_.assign(nc, -1);
  for (std::int32_t i = 0; i < nc; ++i) {
    cons_local_[comp_cons_[i]] = i;
    remaining_[i] = cons_[comp_cons_[i]].capacity;
  }
  for (std::int32_t j = 0; j < nv; ++j) {
    for (const VarElement& e : vars_[comp_vars_[j]].elems) {
      const std::int32_t i = cons_local_[e.c];
      usage_[i] += e.a;
      ++unfixed_[i];
    }
  }
  // Constraint -> variables in ascending id order (compressed rows).
  csr_start_.assign(nc + 1, 0);
  for (std::int32_t i = 0; i < nc; ++i) csr_start_[i + 1] = csr_start_[i] + unfixed_[i];
  csr_vars_.resize(csr_start_[nc]);
  csr_a_.resize(csr_start_[nc]);
  csr_fill_.assign(csr_start_.begin(), csr_start_.end() - 1);
  for (std::int32_t j = 0; j < nv; ++j) {
    for (const VarElement& e : vars_[comp_vars_[j]].elems) {
      const std::int32_t k = csr_fill_[cons_local_[e.c]]++;
      csr_vars_[k] = j;
      csr_a_[k] = e.a;
    }
  }
  fixed_.assign(nv, 0);
  is_touched_.assign(nc, 0);

  heap_.clear();
  for (std::int32_t i = 0; i < nc; ++i) {
    if (unfixed_[i] == 0) continue;
    update_ratio(i);
    heap_pos_[i] = static_cast<std::int32_t>(heap_.size());
    heap_.push_back(i);
  }
  for (auto pos = static_cast<std::int32_t>(heap_.size()) / 2 - 1; pos >= 0; --pos) heap_sift_down(pos);
  bounded_.clear();
  for (std::int32_t j = 0; j < nv; ++j) {
    const double b = vars_[comp_vars_[j]].bound;
    if (b < kInf) bounded_.emplace_back(b, j);
  }
  std::sort(bounded_.begin(), bounded_.end());

  double level = 0;
  std::size_t next_bounded = 0;
  for (;;) {
    while (next_bounded < bounded_.size() && fixed_[bounded_[next_bounded].second]) ++next_bounded;
    const double by_cons = heap_.empty() ? kInf : ratio_[heap_.front()];
    const double by_bound = next_bounded < bounded_.size() ? bounded_[next_bounded].first : kInf;
    if (by_cons == kInf && by_bound == kInf) break;

    if (by_bound <= by_cons) {
      level = std::max(level, by_bound);
      fix_variable(bounded_[next_bounded].second, level);
    } else {
      level = std::max(level, by_cons);
      const std::int32_t c = heap_.front();
      for (std::int32_t k = csr_start_[c]; k < csr_start_[c + 1]; ++k) {
        if (!fixed_[csr_vars_[k]]) fix_variable(csr_vars_[k], level);
      }
    }
    for (std::int32_t i : touched_) {
      is_touched_[i] = 0;
      if (unfixed_[i] > 0) {
        push_ratio(i);
      } else if (heap_pos_[i] >= 0) {
        heap_remove(i);
      }
    }
    touched_.clear();
  }

  // Whatever is left touches no constraint and has no bound.
  for (std::int32_t j = 0; j < nv; ++j) {
    if (!fixed_[j]) vars_[comp_vars_[j]].rate = kInf;
  }
  for (std::int32_t i = 0; i < nc; ++i) {
    double load = 0;
    for (std::int32_t k = csr_start_[i]; k < csr_start_[i + 1]; ++k) {
      load += csr_a_[k] * vars_[comp_vars_[csr_vars_[k]]].rate;
    }
    cons_[comp_cons_[i]].load = load;
  }
  solved_vars_.insert(solved_vars_.end(), comp_vars_.begin(), comp_vars_.end());
  solved_cons_.insert(solved_cons_.end(), comp_cons_.begin(), comp_cons_.end());
}

}  // namespace placesim::engine
