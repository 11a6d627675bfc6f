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
// What is exact. The allocation of one connected component (variables linked through shared
// constraints, transitively) is that of one fill of the component, its variables visited in
// ascending id, sums taken in that order, ties broken as above, and the level clamped so it
// never decreases (rounding can make a later R_c / U_c fall a few ulps below it). solve_all()
// does exactly that for every component. solve() gives the same rates and loads bit for bit
// while filling only what a change can reach:
//
// Parts. A constraint has *slack* when its load is below its capacity by a share kSlack
// (max_min_fill.cpp; far above any rounding). Cut a component at its constraints with slack: what
// is left linked falls into *parts*. If every part's fill is clamp-free (each step's candidate
// is >= the level so far) and every cut constraint keeps its slack under the parts' rates, the
// component's fill equals the parts' fills: it pops exactly the parts' constraints, each part's
// in its own order (a part's state depends on its own steps only), so the merged sequence of
// candidates is nondecreasing and each level is its candidate; a constraint with slack is never
// the smallest candidate (the unfixed variables on it will get at least the next level, which
// its slack leaves room for), so it never pops. Hence solve() fills only the part of each change
// (a variable added, expanded or removed; a constraint that lost a variable), through the
// constraints without slack as of their last solve; rechecks the cut constraints at its edge
// with the new rates; widens the part over any that lost its slack (over all of them when the
// fill's clamp acted) and fills again; and finally records which of the part's constraints have
// slack now (none when its clamp acted, which keeps the whole component together next time).
// A component without slack is one part, filled as solve_all() fills it.
//
// Lone parts. A part of one variable that alone uses each of its constraints (or of a
// constraint no variable uses) is solved in closed form, with the fill's arithmetic: x_v =
// min(B_v, min_c C_c / a_vc), slack where C_c - a_vc x_v leaves it (max_min_fill.cpp,
// solve_lone).
//
// The solver is in parts that each own their state, and MaxMinSystem drives them:
//   * MaxMinProblem (max_min_problem.hpp): the variables, constraints and elements;
//   * Parts (max_min_parts.hpp): which constraints have slack, and the part being filled;
//     EdgeLoads (max_min_edge_loads.hpp): a bound on each edge's load, to recheck it;
//   * FillState (max_min_fill_state.hpp): R_c, U_c and the heap of one fill, which
//     MaxMinSystem::fill_part runs (max_min_fill.cpp, with the rest of a part's solve);
//   * KeptPart (max_min_kept.hpp), with its link checks (max_min_links.hpp): the last large part,
//     kept between solves;
//   * ReplayRecord (max_min_replay.hpp): the last fill's steps, replayed by the next fill;
//   * SolvedListing (max_min_listing.hpp): what a solve lists as solved.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/max_min_edge_loads.hpp"
#include "sim/engine/max_min_fill_state.hpp"
#include "sim/engine/max_min_kept.hpp"
#include "sim/engine/max_min_listing.hpp"
#include "sim/engine/max_min_parts.hpp"
#include "sim/engine/max_min_problem.hpp"
#include "sim/engine/max_min_replay.hpp"

namespace placesim::engine {

class MaxMinSystem {
 public:
  // capacity > 0.
  ConstraintId add_constraint(double capacity);
  // bound > 0, or +inf for none. Ids of removed variables are reused, the last removed first
  // (memory reuse: no caller may count on which id it gets).
  VariableId add_variable(double bound);
  // v consumes coefficient * x_v of c; a second expand of the same pair adds to it.
  // A zero coefficient adds nothing.
  void expand(VariableId v, ConstraintId c, double coefficient);
  void remove_variable(VariableId v);
  // v loses every element and keeps its id and bound: the same system, solves included, as
  // removing v and adding a variable with its bound that gets v's id back. For a caller whose
  // variable stands for several activities and loses one (the solver cannot take a coefficient
  // back).
  void reset_variable(VariableId v);

  // Re-solves the parts touched since the last solve (header comment).
  void solve();
  // Re-solves every component whole.
  void solve_all();

  double rate(VariableId v) const { return rates_[v]; }  // inline: read once per changed rate
  // sum_{v in c} a_vc * x_v at the rates of the last solve, summed in variable id order (taken
  // when asked: ask before the system changes again).
  double load(ConstraintId c) const { return problem_.load(c, rates_); }
  // out[i] = load(cs[i]) for i < n, the same bits, faster for many (max_min_problem.hpp).
  void loads(const ConstraintId* cs, std::size_t n, double* out) const { problem_.loads(cs, n, rates_, out); }

  // Whether solved_constraints() lists the constraints with slack a solve met at its parts'
  // edges (their loads change too) or only those without (the default: on). A caller that reads
  // only saturated constraints turns it off: on the mixed tree at 10k flows a fill meets some
  // 190 edges to 30 constraints, and listing them was 3.7% of `placesim simulate`.
  void list_edges(bool on) { list_edges_ = on; }

  // What the last solve() / solve_all() changed: every variable whose rate changed (and
  // possibly some whose rate did not), and every constraint whose load may have changed (those
  // with slack only with list_edges).
  // Variables in ascending id, whatever parts the solve filled: the executor places their
  // completion events in this order, which orders the events of one instant, so the order must
  // not depend on how the solver cut the problem. Constraints in no particular order.
  const std::vector<VariableId>& solved_variables() const { return listing_.variables(); }
  const std::vector<ConstraintId>& solved_constraints() const { return listing_.constraints(); }

  std::size_t constraint_count() const { return problem_.constraint_count(); }
  // Whether c was full when last solved: what its variables left of it under a share of its
  // capacity far above rounding (max_min_fill.cpp, kSlack), as a fill leaves a constraint it
  // saturated. Changes since (variables added or removed) are not seen until c is solved again.
  bool saturated(ConstraintId c) const { return full_[c] != 0; }
  // The constraint whose saturation fixed v's rate in its last solve, or -1 (its bound, or none
  // left it unfixed); and the level at which c last saturated (meaningful while saturated(c)).
  ConstraintId fixed_by(VariableId v) const { return fixed_by_[v]; }
  double level(ConstraintId c) const { return level_[c]; }
  // The variables using c, in ascending id: variable(c, k) for k below variable_count(c).
  std::size_t variable_count(ConstraintId c) const { return problem_.cons(c).entries.size(); }
  VariableId variable(ConstraintId c, std::size_t k) const { return problem_.cons(c).entries[k].v; }
  // Fill steps taken from records since construction (max_min_replay.hpp): what the replay
  // saved, for tests and benchmarks.
  std::uint64_t replayed_steps() const { return record_.replayed_steps(); }
  // Whether the kept part (max_min_kept.hpp) is a union of parts, with the constraints its
  // variables use and each one's count. For tests; it searches, so call it on a copy.
  bool kept_part_is_closed() { return kept_.is_closed(problem_, parts_); }
  // Fills that started from the kept part instead of a search, since construction.
  std::uint64_t kept_fills() const { return kept_.fills(); }
  // Parts of at least this many variables are kept (64 unless set), while keeping pays
  // (max_min_kept.hpp, "When keeping pays"). Smaller ones are searched every time: a search of a
  // few dozen variables costs less than keeping them, which costs a search's worth once and
  // bookkeeping on every change. Tests set it to keep parts from that size whatever it costs.
  void keep_parts_from(std::size_t variables) { kept_.keep_from(variables); }
  // Whether parts are kept now, and the windows that decided it (for tests and benchmarks).
  const MeasuredSwitch& keeping() const { return kept_.keeping(); }

 private:
  using Element = MaxMinProblem::Element;
  using Var = MaxMinProblem::Var;

  void mark_var(VariableId v) { dirty_vars_.push_back(v); }
  void mark_cons(ConstraintId c) { dirty_cons_.push_back(c); }
  void add_variable_slot();
  void drop_elements(VariableId v);
  // A part's solve (max_min_fill.cpp).
  void solve_part(VariableId seed_var, ConstraintId seed_cons);
  bool solve_lone(VariableId seed_var, ConstraintId seed_cons);
  bool recheck_edges(bool clamp_free, bool from_kept);
  void set_part_slack(bool clamp_free);
  bool fill_part();
  double start_fill();  // fill_part's start: the level its replay reaches, the heap built
  std::size_t saturate(ConstraintId c, double level);
  void end_step(double level, ConstraintId popped, VariableId bounded);
  void fix_variable(VariableId v, double value, ConstraintId by);
  // Sets v's rate; an increase adds to the load bound of its constraints with slack.
  void set_rate(VariableId v, double x);

  MaxMinProblem problem_;
  // Per variable, apart from its record: a load sums the rates of a constraint's variables,
  // 8 bytes each here rather than a line of a record each (the edge checks of a part's fill).
  std::vector<double> rates_;
  std::vector<char> full_;              // per constraint: saturated() (not the same as no slack:
                                        // a fill whose clamp acted leaves none with slack)
  std::vector<double> level_;           // per constraint: level()
  std::vector<ConstraintId> fixed_by_;  // per variable: fixed_by()
  // Seeds of the parts to re-solve (may repeat or be stale; filtered on use).
  std::vector<VariableId> dirty_vars_;
  std::vector<ConstraintId> dirty_cons_;
  std::uint64_t solve_serial_ = 0;  // solves so far
  Parts parts_;
  EdgeLoads edges_;
  FillState fill_;
  ReplayRecord record_;
  KeptPart kept_;
  SolvedListing listing_;
  bool list_edges_ = true;
};

}  // namespace placesim::engine
