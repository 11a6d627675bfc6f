// The kept part: the last large part filled, kept between solves while it is exactly the part a
// search would find, so that a change reaching it is filled from it with no search.
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
// a fraction of the part (max_min_links.hpp). Whatever cannot be shown drops the kept part, and
// the next change reaching it searches (and keeps) again. A part found by a search that takes in
// kept variables replaces the kept one. The kept part then equals a search's bit for bit; tests
// compare them after every solve (MaxMinSystem::kept_part_is_searched()).
//
// When keeping pays. Keeping a part costs about a search of it (each variable's elements
// counted), and after every change that touches it a check; each fill loaded from it saves a
// search. Where one large part lives long (every uplink of the tree full at 30k flows), a part
// kept serves dozens of fills; where flows in flight are held by different links and the parts
// of a hundred change with every event (the mixed tree at 10k flows), it is dropped after about
// one, and keeping cost 7-10% of the run. So parts are kept while, over a window of large parts
// filled (measured_switch.hpp),
//
//     fills loaded from the kept part > kLoadsPerKeep * parts kept.
//
// Per window, bench_flows' sets show 0.7 loads a keep on the mixed tree at 10k flows (keeping
// loses: `placesim simulate` 0.48 s against 0.43 s never keeping, medians of 21 runs) and 50-155
// on both trees at 30k (it wins: uniform 4.5 s against 5.7 s, mixed 4.6 s against 5.3 s); 2 is
// a round break-even above the first with a wide margin below the others. Off, nothing is kept
// or checked, and every part is searched, as it is below keep_min_ variables. Tests that keep
// parts from a given size (keep_from) keep them whatever it costs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/engine/max_min_links.hpp"
#include "sim/engine/measured_switch.hpp"
#include "sim/engine/max_min_parts.hpp"
#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class KeptPart {
 public:
  void add_variable() {
    var_kept_.push_back(0);
    var_checked_.push_back(0);
  }
  void add_constraint() {
    cons_kept_.push_back(0);
    kept_at_.push_back(0);
    links_.add_constraint();
  }

  bool active() const { return kept_; }
  bool holds(VariableId v) const { return var_kept_[v] != 0; }
  // Fills that started from the kept part instead of a search, since construction.
  std::uint64_t fills() const { return fills_; }
  // Parts of at least this many variables are kept, whatever keeping them costs
  // (MaxMinSystem::keep_parts_from).
  void keep_from(std::size_t variables) {
    keep_min_ = std::max<std::size_t>(variables, 1);
    measured_ = false;
  }
  // Whether parts are kept now ("When keeping pays"), for tests and benchmarks.
  const MeasuredSwitch& keeping() const { return switch_; }

  // Whether a change's part is the kept one (a kept part is active).
  bool reaches(const MaxMinProblem& problem, const Parts& parts, VariableId seed_var,
               ConstraintId seed_cons) const;
  // The kept part, brought up to date, as the current part (as Parts::collect leaves one).
  void load(const MaxMinProblem& problem, Parts& parts);
  // v was expanded onto c (`added`: a new element; `had_slack`: c had slack before); a kept part
  // is active.
  void after_expand(VariableId v, ConstraintId c, bool had_slack, bool added);
  // Kept variable v removed, its entries gone, its elements not yet.
  void after_removal(const MaxMinProblem& problem, const Parts& parts, VariableId v);
  // After the current part's fill, once its constraints' slack is set (`from_kept`: it was
  // loaded from the kept part).
  void after_fill(const MaxMinProblem& problem, const Parts& parts, bool from_kept);
  // Kept constraint c lost its slack in a fill of the kept part: searched behind when it is
  // loaded again.
  void note_lost_slack(ConstraintId c) { grown_.push_back(c); }
  void drop();
  // Whether it holds exactly what a search from one of its variables finds (that search is left
  // as the current part).
  bool is_searched(const MaxMinProblem& problem, Parts& parts) const;

 private:
  bool links_to_kept(const MaxMinProblem& problem, const Parts& parts, VariableId v) const;
  bool count(ConstraintId c);
  void join(const MaxMinProblem& problem, const Parts& parts, VariableId v);
  void unkeep(const MaxMinProblem& problem, VariableId v);
  void extend(const MaxMinProblem& problem, const Parts& parts);
  void keep(const MaxMinProblem& problem, const Parts& parts);
  bool still_linked(const MaxMinProblem& problem, const Parts& parts);

  static constexpr double kLoadsPerKeep = 2;  // "When keeping pays"
  std::size_t keep_min_ = 64;
  bool measured_ = true;  // kept while keeping pays; else always (keep_from)
  MeasuredSwitch switch_{kLoadsPerKeep};
  std::uint64_t fills_ = 0;
  bool kept_ = false;
  std::vector<VariableId> vars_;       // ascending
  std::vector<ConstraintId> cons_;     // every constraint a kept variable uses
  std::vector<char> var_kept_;
  std::vector<std::uint64_t> var_checked_;  // == check_: joined in after_fill's check already
  std::uint64_t check_ = 0;
  std::vector<std::int32_t> cons_kept_;  // the kept variables that use it
  std::vector<std::uint32_t> kept_at_;   // its place in cons_
  // Changes since the kept part was last loaded: constraints to search behind (kept ones that
  // lost their slack, or new to it), and variables added onto its constraints.
  std::vector<ConstraintId> grown_;
  std::vector<VariableId> joining_;
  std::vector<VariableId> joined_;     // variables an extension takes in
  ConstraintLinks links_;
};

}  // namespace placesim::engine
