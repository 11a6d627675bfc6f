// The solve of one part (max_min.hpp, "Parts"): its closed form when it is lone, else its
// progressive filling, from where the replay of the last fill's record leaves it
// (max_min_replay.hpp), on the state of FillState (max_min_fill_state.hpp), widened until its
// edges keep their slack. One unit, so that what a part's solve calls is inlined: a solve of
// thousands of lone parts (a ring step) or of small ones pays per call.
#include <algorithm>
#include <limits>

#include "sim/core/prefetch.hpp"
#include "sim/engine/max_min.hpp"

namespace placesim::engine {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A constraint has slack when its load is under its capacity by this share: far above the
// rounding of sums over even millions of variables (a few ulps each), so a fill that includes
// it never saturates it (max_min.hpp, "Parts").
constexpr double kSlack = 1e-9;

}  // namespace

// A part of one variable that alone uses each of its constraints, none with slack, or of one
// constraint that no variable uses, has a closed form. The fill's first step fixes the variable
// at min(B_v, min_c C_c / a_vc) (each R_c = C_c and U_c = a_vc; a bound first on a tie, and a
// tie between constraints gives the same value), leaving R_c = C_c - a_vc x_v, and its clamp
// cannot act. It leaves the part, the rate and each R_c as Parts::collect and fill_part would.
// Every step of a ring collective on thousands of ranks is thousands of these at one instant
// (each flow alone on its link, started and ended by itself), where a search, a fill and a
// record each were a fifth of the event loop. The record is left as it is, as a fill of another
// part leaves it: a record is exact for whichever part replays it (max_min_replay.hpp). Whether
// it applied.
bool MaxMinSystem::solve_lone(VariableId seed_var, ConstraintId seed_cons) {
  if (seed_var >= 0) {
    for (const Element& e : problem_.var(seed_var).elems) {
      if (problem_.cons(e.c).entries.size() != 1 || parts_.slack(e.c)) return false;
    }
  } else if (!problem_.cons(seed_cons).entries.empty()) {
    return false;
  }
  parts_.start();
  if (seed_var < 0) {
    parts_.add_cons(seed_cons);
    fill_.set_remaining(seed_cons, problem_.cons(seed_cons).capacity);
    return true;
  }
  const Var& var = problem_.var(seed_var);
  parts_.add_var(seed_var);
  double x = var.bound;
  fixed_by_[seed_var] = -1;  // the fill's ties: a bound first, then the lowest constraint id
  for (const Element& e : var.elems) {
    const double q = problem_.cons(e.c).capacity / e.a;
    if (q < x || (q == x && fixed_by_[seed_var] > e.c)) {
      x = q;
      fixed_by_[seed_var] = e.c;
    }
  }
  if (fixed_by_[seed_var] >= 0) level_[fixed_by_[seed_var]] = x;
  set_rate(seed_var, x);
  for (const Element& e : var.elems) {
    parts_.add_cons(e.c);
    fill_.set_remaining(e.c, problem_.cons(e.c).capacity - e.a * x);
  }
  return true;
}

// Fills the part of a change (Parts::collect), widening it over every edge constraint that
// loses its slack, or over all of them when the fill's level clamp acted, until its edges keep
// their slack (or it has none: the part is the whole component).
void MaxMinSystem::solve_part(VariableId seed_var, ConstraintId seed_cons) {
  // A constraint with slack that lost a variable keeps its slack (its load only fell) and fixes
  // no rate: its part is itself as an edge, and a fill of it would change nothing. A flow that
  // ends leaves each of its links with slack so: on the mixed tree at 10k flows, 14k of 39k
  // fills were of such parts.
  if (seed_var < 0 && parts_.slack(seed_cons)) {
    parts_.start();
    parts_.add_cons(seed_cons);
    if (list_edges_) listing_.list_constraints(parts_.edges());
    return;
  }
  bool clamp_free = true;
  // The kept part, when the change reaches it, is this part (max_min_kept.hpp); it is never lone
  // (its variables share constraints).
  const bool from_kept = kept_.active() && kept_.reaches(problem_, parts_, seed_var, seed_cons);
  // A lone part is solved already (it has no edges); any other is filled until it needs no
  // widening.
  bool searched = false;
  for (bool widened = from_kept || !solve_lone(seed_var, seed_cons); widened;) {
    if (from_kept) {
      kept_.load(problem_, parts_, list_edges_);
    } else if (searched) {
      parts_.widen(problem_);
    } else {
      parts_.collect(problem_, seed_var, seed_cons);
      searched = true;
    }
    clamp_free = fill_part();
    widened = recheck_edges(clamp_free, from_kept);
  }
  set_part_slack(clamp_free);
  kept_.after_fill(problem_, parts_, from_kept);
  listing_.list_constraints(parts_.cons());
  if (list_edges_) listing_.list_constraints(parts_.edges());
}

// After a fill: whether an edge lost its slack, or the clamp acted (every edge loses it), so
// that the part widens over them. Only edges where some rate grew are checked: the others'
// loads did not grow since they last had slack (a variable added to a constraint takes away its
// slack, a removed one only lowers it).
bool MaxMinSystem::recheck_edges(bool clamp_free, bool from_kept) {
  bool widened = false;
  if (!clamp_free && from_kept && !list_edges_) kept_.add_edges(parts_);  // loaded without
  for (ConstraintId c : clamp_free ? edges_.grown() : parts_.edges()) {
    const double capacity = problem_.cons(c).capacity;
    const double limit = capacity - capacity * kSlack;
    // An edge whose bound keeps it under the limit keeps its slack; else its load is summed.
    if (clamp_free && !(edges_.bound(c) <= limit)) edges_.set_bound(c, load(c));
    if (!clamp_free || !(edges_.bound(c) <= limit)) {
      parts_.set_slack(c, false);
      widened = true;
      if (from_kept) kept_.note_lost_slack(c);  // searched behind when the part is loaded again
    }
  }
  edges_.clear_grown();
  return widened;
}

// A filled constraint's R_c is what its variables leave of it (summed in fill order): it has
// slack when that is at least kSlack of its capacity, unless the clamp acted. Only here does a
// constraint gain slack, and only when it is not full: so an edge, which has slack, is not full
// already.
void MaxMinSystem::set_part_slack(bool clamp_free) {
  for (ConstraintId c : parts_.cons()) {
    const double capacity = problem_.cons(c).capacity;
    full_[c] = !(fill_.remaining(c) >= capacity * kSlack);
    parts_.set_slack(c, clamp_free && !full_[c]);
    if (parts_.slack(c)) edges_.set_bound(c, capacity - fill_.remaining(c));
  }
}

// fill_part's start: none fixed, the bounded ones (FillState::start), the replay, which stops
// before the first variable the record fixed that changed since, and the heap.
double MaxMinSystem::start_fill() {
  fill_.start(problem_, parts_.vars());
  const std::uint32_t changed_at = record_.first_changed(parts_);
  record_.start(solve_serial_);
  double level = 0;
  record_.replay(problem_, rates_, parts_, fill_, fixed_by_, level, changed_at);
  fill_.build_heap(parts_.cons());
  return level;
}

// Progressive filling of the part's variables over its constraints without slack (edges have
// slack and take no part), recorded for the next fill. False when the level clamp acted: a
// popped R_c / U_c or bound fell below the level.
bool MaxMinSystem::fill_part() {
  double level = start_fill();
  bool clamp_free = true;
  std::size_t left = parts_.vars().size() - record_.fixed_count();  // variables not yet fixed
  // Once every variable is fixed, nothing is left to pop: the remaining entries are dropped.
  while (left > 0) {
    const auto [by_bound, bounded] = fill_.next_bounded();
    const FillState::HeapEntry top = fill_.heap_top();
    if (top.key == kInf && by_bound == kInf) break;
    if (by_bound <= top.key) {
      clamp_free = clamp_free && !(by_bound < level);
      level = std::max(level, by_bound);
      fix_variable(bounded, level, -1);
      --left;
      end_step(level, -1, bounded);
    } else {
      clamp_free = clamp_free && !(top.key < level);
      level = std::max(level, top.key);
      left -= saturate(top.c, level);
      end_step(level, top.c, -1);
    }
  }
  // Whatever is left touches no constraint without slack and has no bound (nearly always
  // nothing: then no pass over the part).
  if (left > 0) {
    for (VariableId v : parts_.vars()) {
      if (!fill_.fixed(v)) {
        set_rate(v, kInf);
        fixed_by_[v] = -1;
      }
    }
  }
  record_.finish(clamp_free, parts_.cons());
  return clamp_free;
}

// What set_rate does, in the same pass over v's elements as the fill's: a fill fixes a million
// variables on the mixed tree at 10k flows, and the second pass and the calls were 4% of
// `placesim simulate`'s instructions.
inline void MaxMinSystem::fix_variable(VariableId v, double value, ConstraintId by) {
  const Var& var = problem_.var(v);
  const double x = std::min(value, var.bound);
  const double was = rates_[v];
  fill_.mark_fixed(v);
  fixed_by_[v] = by;
  if (x != was) listing_.mark_changed(v);
  record_.note_rate_set(v);
  rates_[v] = x;
  record_.record_fix(v);
  for (const Element& e : var.elems) {
    // An edge's R_c, U_c and count are never read: it is not filled through, and its slack is
    // checked on its load, summed from the rates (a bound on it grows with its rates). On the
    // tree, half of a flow's links.
    if (parts_.slack(e.c)) {
      if (x > was) edges_.grow(e.c, e.a * (x - was));
    } else {
      fill_.take(e.c, e.a, x);
    }
  }
}

// c saturates at `level`: its variables left unfixed are fixed at it (only they are asked for
// ahead). How many.
inline std::size_t MaxMinSystem::saturate(ConstraintId c, double level) {
  level_[c] = level;
  const std::size_t n = fill_.gather_unfixed(problem_.cons(c).entries);
  for (std::size_t k = 0; k < n; ++k) {
    if (k + kPrefetchAhead < n) prefetch(&problem_.var(fill_.unfixed_var(k + kPrefetchAhead)));
    fix_variable(fill_.unfixed_var(k), level, c);
  }
  return n;
}

// The constraints the step touched are settled and logged, and the step recorded.
inline void MaxMinSystem::end_step(double level, ConstraintId popped, VariableId bounded) {
  for (ConstraintId c : fill_.touched()) {
    fill_.settle(c, problem_.cons(c).entries);
    record_.log(fill_.snapshot(c));
  }
  fill_.clear_touched();
  record_.record_step(level, popped, bounded);
}

void MaxMinSystem::set_rate(VariableId v, double x) {
  if (x != rates_[v]) listing_.mark_changed(v);
  record_.note_rate_set(v);  // the record's rate may move
  if (x > rates_[v]) {
    for (const Element& e : problem_.var(v).elems) {
      if (parts_.slack(e.c)) edges_.grow(e.c, e.a * (x - rates_[v]));
    }
  }
  rates_[v] = x;
}

}  // namespace placesim::engine
