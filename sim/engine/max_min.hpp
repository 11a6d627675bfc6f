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
// (max_min.cpp; far above any rounding). Cut a component at its constraints with slack: what
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
// Kept parts. Searching the part of every change again was a quarter of a run where thousands
// of flows in flight form one part and each event changes one of them. So the last large part
// filled is kept between solves (its variables in id order, the constraints they use, how many
// of its variables use each), and a change that reaches it is filled from it, with no search,
// as long as it is exactly the part a search would find. What can change a part is tracked:
//   * a variable added or expanded onto a kept constraint (or a kept variable expanded): the
//     constraint is noted, and before the next fill the part takes in, as a search would, what
//     is linked to it through constraints without slack;
//   * a kept variable removed: the part stays whole when the constraints without slack it
//     linked are still linked without it;
//   * constraints of the part that gain slack at the end of its fill: it stays whole when the
//     constraints without slack of their variables are still linked (each such variable keeps
//     one, or it would be a part of its own);
//   * an edge that loses its slack while the part is filled: the part takes in what lies
//     behind it, as the search after a widening would.
// "Still linked" is checked by union-find over what the changed variables join directly, then
// a search from the smaller groups that stops once all are joined, or gives up past a budget of
// a fraction of the part. Whatever cannot be shown drops the kept part, and the next change
// reaching it searches (and keeps) again. A part found by a search that takes in kept variables
// replaces the kept one. The kept part then equals a search's bit for bit; tests compare them
// after every solve (kept_part_is_searched()).
//
// Replay. A fill records its steps (the constraint or bound each one fixed its variables by, and
// its level), the variables in the order it fixed them, and after each step the state (R_c,
// U_c, unfixed count, R_c / U_c) of every part constraint the step touched. The next fill, of the
// part a change reaches, starts by replaying that record: as long as each recorded step is the
// one the new fill would take, the new fill would fix the same variables at the same levels,
// bit for bit, so the state after the step is the recorded one. A recorded step is the new
// fill's when its constraint is in the new part and unchanged (the same variables, none added,
// removed or expanded since), and every constraint whose state can differ from the record (one
// that changed, or was not in the recorded part) has a current R_c / U_c strictly above the
// step's level, as has every changed bounded variable's bound. Those few constraints are walked
// step by step through the recorded fixes of their own variables, in fix order (the order the
// fill subtracts in). At the first step that fails, the state is rebuilt from the record (the
// last logged state of each constraint, or its recorded initial U_c) and the fill goes on as
// usual. Stopping early is always exact; replaying is exact by the argument above. A variable
// fixed in the replayed steps keeps its rate: it is neither touched nor listed as solved. Only
// a clamp-free fill is recorded, and solve_all() drops the record (it is the reference).
//
// Lone parts. A part of one variable that alone uses each of its constraints (or of a
// constraint no variable uses) is solved in closed form, with the fill's arithmetic: x_v =
// min(B_v, min_c C_c / a_vc), slack where C_c - a_vc x_v leaves it (max_min.cpp, solve_lone).
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
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "sim/engine/element_list.hpp"

namespace placesim::engine {

using ConstraintId = std::int32_t;
using VariableId = std::int32_t;

class MaxMinSystem {
 public:
  // capacity > 0.
  ConstraintId add_constraint(double capacity);
  // bound > 0, or +inf for none. Ids of removed variables are reused, the last removed first.
  VariableId add_variable(double bound);
  // v consumes coefficient * x_v of c; a second expand of the same pair adds to it.
  // A zero coefficient adds nothing.
  void expand(VariableId v, ConstraintId c, double coefficient);
  void remove_variable(VariableId v);

  // Re-solves the parts touched since the last solve (header comment).
  void solve();
  // Re-solves every component whole.
  void solve_all();

  double rate(VariableId v) const { return rates_[v]; }  // inline: read once per changed rate
  // sum_{v in c} a_vc * x_v at the rates of the last solve, summed in variable id order (taken
  // when asked: ask before the system changes again).
  double load(ConstraintId c) const;

  // What the last solve() / solve_all() changed: every variable whose rate changed (and
  // possibly some whose rate did not), and every constraint whose load may have changed.
  // Variables component by component, each in ascending id (the order a solve of whole
  // components would list them in); the components in the order of what changed in them since
  // the solve before: first the variables added or expanded, then the constraints that lost a
  // variable, each in the order of the changes. Constraints in no particular order.
  const std::vector<VariableId>& solved_variables() const { return solved_vars_; }
  const std::vector<ConstraintId>& solved_constraints() const { return solved_cons_; }

  std::size_t constraint_count() const { return cons_.size(); }
  // Whether c was full when last solved: what its variables left of it under a share of its
  // capacity far above rounding (max_min.cpp, kSlack), as a fill leaves a constraint it
  // saturated. Changes since (variables added or removed) are not seen until c is solved again.
  bool saturated(ConstraintId c) const { return full_[c] != 0; }
  // The constraint whose saturation fixed v's rate in its last solve, or -1 (its bound, or none
  // left it unfixed); and the level at which c last saturated (meaningful while saturated(c)).
  ConstraintId fixed_by(VariableId v) const { return fixed_by_[v]; }
  double level(ConstraintId c) const { return level_[c]; }
  // The variables using c, in ascending id: variable(c, k) for k below variable_count(c).
  std::size_t variable_count(ConstraintId c) const { return cons_[c].entries.size(); }
  VariableId variable(ConstraintId c, std::size_t k) const { return cons_[c].entries[k].v; }
  // Fill steps taken from records since construction (header comment, "Replay"): what the
  // replay saved, for tests and benchmarks.
  std::uint64_t replayed_steps() const { return replayed_steps_; }
  // Whether the kept part (header comment, "Kept parts") holds exactly what a search from one of
  // its variables finds: its variables, its constraints and each one's count. For tests; it
  // searches, so call it on a copy.
  bool kept_part_is_searched();
  // Fills that started from the kept part instead of a search, since construction.
  std::uint64_t kept_fills() const { return kept_fills_; }
  // Parts of at least this many variables are kept (64 unless set). Smaller ones are searched
  // every time: a search of a few dozen variables costs less than keeping them, which costs a
  // search's worth once and bookkeeping on every change. Tests lower it to keep small parts.
  void keep_parts_from(std::size_t variables) { keep_min_ = std::max<std::size_t>(variables, 1); }

 private:
  using Element = ElementList::Element;
  struct Entry {
    VariableId v;
    double a;
  };
  // One cache line (element_list.hpp).
  struct alignas(64) Var {
    double bound = 0;  // > 0 while the variable is alive, 0 once removed
    ElementList elems;  // in expand order
  };
  static_assert(sizeof(Var) == 64);
  bool alive(VariableId v) const { return vars_[v].bound > 0; }
  struct Cons {
    double capacity = 0;
    std::vector<Entry> entries;  // ascending variable id: the order sums are taken in
  };

  void mark_var(VariableId v);
  void mark_cons(ConstraintId c);
  Entry& entry(ConstraintId c, VariableId v);
  void collect_component(VariableId seed_var, ConstraintId seed_cons);
  bool solve_part(VariableId seed_var, ConstraintId seed_cons);
  // Kept parts (header comment; max_min_kept.cpp).
  bool reaches_kept(VariableId seed_var, ConstraintId seed_cons) const;
  void load_kept();
  void extend_kept();
  bool count_kept(ConstraintId c);
  void join_kept(VariableId v);
  void kept_after_expand(VariableId v, ConstraintId c, bool had_slack, bool added);
  bool links_to_kept(VariableId v) const;
  void unkeep_var(VariableId v);
  void keep_part();
  void drop_kept();
  void kept_after_fill(bool from_kept);
  void kept_after_removal(VariableId v);
  void start_links();
  bool queue_link(ConstraintId c);
  ConstraintId link_find(ConstraintId c);
  void link_add(ConstraintId c, ConstraintId root);
  void link_union(ConstraintId a, ConstraintId b);
  bool links_join();
  bool solve_lone(VariableId seed_var, ConstraintId seed_cons);
  void collect_part(VariableId seed_var, ConstraintId seed_cons);
  void order_by_component();
  bool fill_part();
  double start_fill();  // fill_part's start: the level its replay reaches, the heap built
  // Replay (header comment): the state of the part's constraints after the recorded steps the
  // new fill would take too, none at or past `changed_at` in the record's fix order; the steps
  // replayed, their variables marked fixed. `level` is the last replayed step's.
  std::size_t replay(double& level, std::uint32_t changed_at);
  void start_record();
  void record_step(double key, ConstraintId c, VariableId bounded);
  void finish_record(bool clamp_free);
  void fix_variable(VariableId v, double value, ConstraintId by);
  // Sets v's rate; an increase adds to the load bound of its constraints with slack and lists them
  // in grown_edges_.
  void set_rate(VariableId v, double x);
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
  // Per variable, apart from its record: a load sums the rates of a constraint's variables,
  // 8 bytes each here rather than a line of a record each (the edge checks of a part's fill).
  std::vector<double> rates_;
  std::vector<Cons> cons_;
  std::vector<VariableId> free_vars_;

  // Seeds of the components to re-solve (may repeat or be stale; filtered on use).
  std::vector<VariableId> dirty_vars_;
  std::vector<ConstraintId> dirty_cons_;

  // Components, searched only to order solved_vars_ when one solve filled several parts: each
  // search gets the next epoch, the stamps equal to epoch_ are the current component's.
  std::uint64_t epoch_ = 0;
  std::vector<std::uint64_t> var_seen_;
  std::vector<std::uint64_t> cons_seen_;
  std::vector<VariableId> comp_vars_;
  std::vector<ConstraintId> comp_cons_;

  // Scratch for one fill, indexed by constraint or variable id, reused across solves (only the
  // current part's entries are meaningful).
  std::vector<double> remaining_;          // R_c
  std::vector<double> usage_;              // U_c
  std::vector<std::int32_t> unfixed_;      // unfixed variables left in c
  std::vector<double> ratio_;              // R_c / U_c, current
  std::vector<double> key_;                // key of c's live heap entry: <= ratio_ (lazy)
  std::vector<char> fixed_;                // per variable
  std::vector<ConstraintId> touched_;      // constraints changed by the current step
  std::vector<VariableId> unfixed_vars_;   // a saturated constraint's variables left to fix
  std::vector<char> is_touched_;
  std::vector<HeapEntry> heap_;            // min-heap; an entry whose key is not key_[c] is superseded
  std::vector<std::pair<double, VariableId>> bounded_;  // (bound, variable), ascending
  // Live variables with a bound: while there are none (the tree's flows), a fill reads no
  // variable's record to find them.
  std::size_t bounded_live_ = 0;

  // Parts (header comment): per constraint, whether it had slack when last solved, so that it
  // joins no part; the current part, stamped part_epoch_ (a new one per search).
  std::vector<char> slack_;
  std::vector<char> full_;  // per constraint: saturated() (not the same as no slack: a fill
                            // whose clamp acted leaves none with slack)
  std::vector<double> level_;           // per constraint: level()
  std::vector<ConstraintId> fixed_by_;  // per variable: fixed_by()
  std::uint64_t part_epoch_ = 0;
  std::vector<std::uint64_t> var_part_;
  std::vector<std::uint64_t> cons_part_;
  std::vector<VariableId> part_vars_;   // ascending
  std::vector<ConstraintId> part_cons_;
  std::vector<ConstraintId> part_edge_;
  std::vector<ConstraintId> grown_edges_;  // edges of the part where a rate grew in this fill
  std::vector<char> grew_;                 // in grown_edges_
  // Per constraint with slack, a bound on its load: its load when it last gained its slack or
  // was summed, plus every increase of a rate on it since (set_rate). An edge whose bound is
  // under the slack limit keeps its slack without its load being summed: on the tree half the
  // edge checks' time went to those sums. A bound off from the load in the last bits only
  // moves the decision for a load within rounding of the limit, which is 1e-9 of the capacity
  // below it: the edge then has slack either way, and the rates are the same ("Parts").
  std::vector<double> edge_load_;
  std::uint64_t solve_serial_ = 0;
  std::vector<std::uint64_t> var_listed_;   // == solve_serial_: in solved_vars_
  std::vector<std::uint64_t> cons_listed_;  // == solve_serial_: in solved_cons_

  std::vector<VariableId> solved_vars_;
  std::vector<ConstraintId> solved_cons_;
  // The variables whose rate changed since the part's last listing, one bit each, and the range
  // of ids holding set bits (empty when lo > hi). The listing reads the set bits in id order:
  // a scan of the part's variables for a stamp each mispredicted a branch on about every
  // second one, since about half of them change (the listing was 6% of the 30k tree).
  std::vector<std::uint64_t> changed_bits_;
  VariableId changed_lo_ = std::numeric_limits<VariableId>::max(), changed_hi_ = -1;

  // Replay (header comment). Changes between solves are stamped with the solve they come before.
  struct Step {
    double level;
    ConstraintId c;             // the constraint that saturated, or -1: a variable's bound
    VariableId bounded;         // when c == -1
    std::uint32_t fixed_end;    // its variables: Record::fixed[previous step's fixed_end, fixed_end)
    std::uint32_t log_end;      // its log entries: Record::log[previous step's log_end, log_end)
  };
  struct LogEntry {
    ConstraintId c;
    std::int32_t unfixed;
    double remaining, usage, ratio;
  };
  struct Record {
    std::uint64_t id = 0;    // 0: none
    std::uint64_t made = 0;  // solve_serial_ of the fill
    std::vector<Step> steps;
    std::vector<VariableId> fixed;  // in fix order
    std::vector<LogEntry> log;
  };
  Record rec_;   // the last fill's
  Record next_;  // the current fill's, built as it goes
  std::uint64_t rec_serial_ = 0;
  bool touched_record_ = false;
  std::uint64_t replayed_steps_ = 0;  // the current fill fixed a variable the record had fixed
  std::vector<std::uint64_t> var_mod_, cons_mod_;  // the solve before which it last changed
  std::vector<std::uint64_t> cons_rec_;            // the record whose part holds it
  std::vector<double> rec_usage_;                  // its initial U_c in that record
  std::vector<std::uint64_t> var_rec_;             // the record that fixed it
  // Variables added or expanded since the record was made (repeats and removed ones included):
  // where a fill looks for the first recorded fix that changed, instead of in each variable of
  // the part. Given up (modified_lost_), and the part's variables read, once it outgrows them.
  std::vector<VariableId> modified_;
  bool modified_lost_ = false;
  void note_modified(VariableId v);  // v added or expanded: stamps var_mod_ and lists it
  std::vector<std::uint32_t> fix_pos_;             // its place in that record's fixed
  // Constraints whose state can differ from the record's, and their recorded fixes in fix order.
  struct Walk {
    ConstraintId c;
    std::uint32_t begin, end;  // in walk_fixes_
  };
  std::vector<Walk> walks_;
  std::vector<std::pair<std::uint32_t, Entry>> walk_fixes_;  // (fix position, entry)
  std::vector<std::uint64_t> cons_walked_;  // == part_epoch_: in walks_

  // Kept part (header comment, "Kept parts").
  std::size_t keep_min_ = 64;
  std::uint64_t kept_fills_ = 0;
  bool kept_ = false;
  std::vector<VariableId> kept_vars_;     // ascending
  std::vector<ConstraintId> kept_cons_;   // every constraint a kept variable uses
  std::vector<char> var_kept_;
  std::vector<std::int32_t> cons_kept_;   // the kept variables that use it
  std::vector<std::uint32_t> kept_at_;    // its place in kept_cons_
  // Changes since the kept part was last loaded: constraints to search behind (kept ones that
  // lost their slack, or new to it), and variables added onto its constraints.
  std::vector<ConstraintId> kept_grown_;
  std::vector<VariableId> kept_joining_;
  std::vector<VariableId> joined_;        // variables an extension takes in
  // Link checks: union-find over constraints stamped link_epoch_, and what to search from.
  std::uint64_t link_epoch_ = 0;
  std::vector<std::uint64_t> link_seen_;
  std::vector<ConstraintId> link_root_;
  std::vector<std::size_t> link_weight_;  // per group's root: its constraints' entries
  std::vector<ConstraintId> link_queue_;  // the constraints to join, searched from in order
  std::vector<ConstraintId> link_met_;    // met by the search: searched from next
  std::size_t link_groups_ = 0;
};

}  // namespace placesim::engine
