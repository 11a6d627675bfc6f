// A standalone max-min fair sharing solver (progressive filling with coefficients), in the
// manner of SimGrid's lmm (src/kernel/lmm/System.hpp). It knows nothing of links or GPUs: the
// executor maps resources to constraints and activities to variables.
//
// The problem. Constraints c have capacities C_c > 0. Variables v have an optional bound
// B_v (a rate cap, +inf when none). An element (v, c, a) with a > 0 says that v consumes
// a * x_v of c when v runs at rate x_v. A feasible allocation satisfies
//
//     for every c:  sum_{v in c} a_vc * x_v <= C_c          and    0 <= x_v <= B_v.
//
// The max-min fair allocation (equal weights) is the feasible x whose vector of rates, sorted
// ascending, is lexicographically largest: no rate can grow without shrinking one that is
// already smaller or equal. It is computed by progressive filling: every unfixed rate rises
// together from 0 as one level t; a variable is fixed when
//   * its bound is reached:  t = B_v,                         x_v = B_v;  or
//   * one of its constraints saturates:
//         t = R_c / U_c,  R_c = C_c - sum_{fixed v in c} a_vc x_v,  U_c = sum_{unfixed v in c} a_vc,
//     and then every unfixed variable of c gets x_v = t.
// Each step takes the smallest candidate (bounds first on a tie, then constraints by id),
// fixes its variables, updates R and U of the constraints they touch, and repeats until every
// variable is fixed. A variable with no constraint and no bound has rate +inf.
//
// Incremental solving. The allocation of one connected component (variables linked through
// shared constraints, transitively) depends only on that component. solve() therefore
// re-solves only the components that changed since the last solve (a variable added, expanded
// or removed), each on its own, visiting variables and constraints in ascending id order and
// summing in that order. The result is therefore bit-identical to solve_all(), which re-solves
// every component the same way. The fill level is clamped so it never decreases: rounding can
// make a later R_c / U_c fall a few ulps below the current level.
//
// Cost of a component's solve: linear in its elements plus a heap operation per constraint that
// saturates or runs out of variables. Each constraint keeps its variables sorted by id, so no
// per-solve index is built. The heap is lazy: in exact arithmetic fixing variables never lowers
// a constraint's R_c / U_c, so a key that grew stays in place as a lower bound and is brought up
// to date only when it reaches the top; one that fell (rounding) is pushed again with its new
// key, its old entry dropped when it surfaces. A constraint with no variable left is dropped
// when it surfaces too, and the fill stops once every variable is fixed. The constraint popped
// is thus the one with the smallest current (R_c / U_c, id), as with every key kept current.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace placesim::engine {

using ConstraintId = std::int32_t;
using VariableId = std::int32_t;

class MaxMinSystem {
 public:
  // capacity > 0.
  ConstraintId add_constraint(double capacity);
  // bound > 0, or +inf for none. Ids of removed variables are reused.
  VariableId add_variable(double bound);
  // v consumes coefficient * x_v of c; a second expand of the same pair adds to it.
  // A zero coefficient adds nothing.
  void expand(VariableId v, ConstraintId c, double coefficient);
  void remove_variable(VariableId v);

  // Re-solves the components touched since the last solve.
  void solve();
  // Re-solves every component.
  void solve_all();

  double rate(VariableId v) const;
  // sum_{v in c} a_vc * x_v after the last solve of c's component, summed in variable id order.
  double load(ConstraintId c) const;

  // What the last solve() / solve_all() recomputed, component by component.
  const std::vector<VariableId>& solved_variables() const { return solved_vars_; }
  const std::vector<ConstraintId>& solved_constraints() const { return solved_cons_; }

  std::size_t constraint_count() const { return cons_.size(); }

 private:
  struct Element {
    ConstraintId c;
    double a;
  };
  struct Entry {
    VariableId v;
    double a;
  };
  struct Var {
    double bound = 0;
    double rate = 0;
    bool alive = false;
    std::vector<Element> elems;  // in expand order
  };
  struct Cons {
    double capacity = 0;
    double load = 0;
    std::vector<Entry> entries;  // ascending variable id: the order sums are taken in
  };

  void mark_var(VariableId v);
  void mark_cons(ConstraintId c);
  Entry& entry(ConstraintId c, VariableId v);
  void collect_component(VariableId seed_var, ConstraintId seed_cons);
  void solve_component();
  void fix_variable(VariableId v, double value);
  void update_ratio(ConstraintId c);  // R_c / U_c into ratio_
  struct HeapEntry {
    double key;
    ConstraintId c;
    bool operator<(const HeapEntry& o) const { return key != o.key ? key < o.key : c < o.c; }
  };
  void heap_push(HeapEntry e);
  void heap_pop();
  void heap_sift_up(std::size_t pos);
  void heap_sift_down(std::size_t pos);
  // Drops entries of constraints with no variable left and superseded entries off the top, and
  // brings a stale top key up to date, until the top is the constraint with the smallest
  // current (R_c / U_c, id).
  void heap_settle();

  std::vector<Var> vars_;
  std::vector<Cons> cons_;
  std::vector<VariableId> free_vars_;

  // Seeds of the components to re-solve (may repeat or be stale; filtered on use).
  std::vector<VariableId> dirty_vars_;
  std::vector<ConstraintId> dirty_cons_;

  // Visit stamps: each component searched (and each idle constraint) gets the next epoch, so
  // the stamps equal to epoch_ are exactly the current component's, and those from
  // solve_first_epoch_ on were visited in this solve.
  std::uint64_t epoch_ = 0;
  std::uint64_t solve_first_epoch_ = 1;
  std::vector<std::uint64_t> var_seen_;
  std::vector<std::uint64_t> cons_seen_;

  // Scratch for one component, indexed by constraint or variable id, reused across solves
  // (only the current component's entries are meaningful).
  std::vector<VariableId> comp_vars_;      // ascending
  std::vector<ConstraintId> comp_cons_;    // ascending
  std::vector<double> remaining_;          // R_c
  std::vector<double> usage_;              // U_c
  std::vector<std::int32_t> unfixed_;      // unfixed variables left in c
  std::vector<double> ratio_;              // R_c / U_c, current
  std::vector<double> key_;                // key of c's live heap entry: <= ratio_ (lazy)
  std::vector<char> fixed_;                // per variable
  std::vector<ConstraintId> touched_;      // constraints changed by the current step
  std::vector<char> is_touched_;
  std::vector<HeapEntry> heap_;            // min-heap; an entry whose key is not key_[c] is superseded
  std::vector<std::pair<double, VariableId>> bounded_;  // (bound, variable), ascending

  std::vector<VariableId> solved_vars_;
  std::vector<ConstraintId> solved_cons_;
};

}  // namespace placesim::engine
