// The kept part: the last large part filled, kept between solves as a union of parts, so that a
// change reaching it is filled from it with no search.
//
// Kept parts. Searching the part of every change again was a quarter of a run where thousands
// of flows in flight form one part and each event changes one of them. So the last large part
// filled is kept between solves (its variables in id order, the constraints they use, how many
// of its variables use each), and a change that reaches it is filled from it, with no search.
// What can change a part is tracked:
//   * a variable added or expanded onto a kept constraint (or a kept variable expanded): the
//     constraint is noted, and before the next fill the part takes in, as a search would, what
//     is linked to it through constraints without slack;
//   * a kept variable removed: the part stays kept when the constraints without slack it linked
//     are still linked without it;
//   * an edge that loses its slack while the part is filled: the part takes in what lies
//     behind it, as the search after a widening would.
// "Still linked" is checked by union-find over what the removed variable joined directly, then
// a search from the smaller groups that stops once all are joined, or gives up past a budget of
// a fraction of the part (max_min_links.hpp). Whatever cannot be shown drops the kept part, and
// the next change reaching it searches (and keeps) again. A part found by a search that takes in
// kept variables replaces the kept one.
//
// A union of parts. Constraints of the kept part that gain slack at the end of its fill may cut
// it in two or more parts; it is kept whole all the same. A fill of a union of parts, each cut
// from the rest at constraints with slack, gives each part the rates a fill of it alone would,
// bit for bit, while every part's own fill is clamp-free (max_min.hpp, "Parts": that argument is
// about any set of parts filled together, not only a whole component); and where one part's
// would not be, neither is the union's (the heap pops the union's smallest candidate, so a
// candidate below the level is one below its own part's last), which then widens over every
// edge as any part's does. So the kept part needs only be closed: a search from any of its
// variables stays within it. Tests check that after every solve
// (MaxMinSystem::kept_part_is_closed()), and the rates against whole-component fills. A
// solve lists the rates it changed in id order, whatever parts it filled (max_min.hpp,
// solved_variables), so filling parts together changes no event's order either.
//
// Why whole. On the mixed tree at 10k flows the uplinks gain and lose their slack with nearly
// every flow that starts or ends, and a part cut apart by one fill is linked again a few events
// later: checking at the end of each fill whether the kept part still held together dropped it
// after about one fill (0.7 fills loaded per part kept), and the next change searched. Kept
// whole, 22,979 fills load it and 1,754 search; `placesim simulate` runs 18% fewer instructions
// (2,602M -> 2,126M under cachegrind) and its simulating step 18% less time. Filling parts that
// did not change costs little: the replay (max_min_replay.hpp) takes their steps from the
// record. The check at a removal is what keeps that true where parts drift apart for good (the
// uniform tree, whose flows are held by their host links): without it the union there grew to
// hundreds of flows, filled whole at every change of any (842M instructions against 655M); with
// it, 1.6% more than searching.
//
// When keeping pays. Keeping a part costs about a search of it (each variable's elements
// counted), and after every change that touches it a check; each fill loaded from it saves a
// search. Where one large part lives long (every uplink of the tree full at 30k flows), a part
// kept serves dozens of fills; where the parts of a hundred flows change with every event and
// are dropped after about one fill, keeping cost 7-10% of the run (the mixed tree at 10k flows,
// before the kept part was kept whole). So parts are kept while, over a window of large parts
// filled (measured_switch.hpp),
//
//     fills loaded from the kept part > kLoadsPerKeep * parts kept.
//
// Per window, bench_flows' sets showed 0.7 loads a keep on the mixed tree at 10k flows (keeping
// lost: `placesim simulate` 0.48 s against 0.43 s never keeping, medians of 21 runs; kept whole,
// over 13) and 50-155 on both trees at 30k (it wins: uniform 4.5 s against 5.7 s, mixed 4.6 s
// against 5.3 s); 2 is a round break-even above the first with a wide margin below the others. Off, nothing is kept
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
  // The kept part, brought up to date, as the current part (as Parts::collect leaves one, but
  // for its edges unless `with_edges`).
  void load(const MaxMinProblem& problem, Parts& parts, bool with_edges);
  // The kept part's edges, into the current part loaded without them.
  void add_edges(Parts& parts) const { parts.add_edges(cons_); }
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
  // Whether it is a union of parts ("A union of parts"): what a search from each of its
  // variables finds lies within it (the last search is left as the current part).
  bool is_closed(const MaxMinProblem& problem, Parts& parts) const;

 private:
  bool links_to_kept(const MaxMinProblem& problem, const Parts& parts, VariableId v) const;
  bool count(ConstraintId c);
  void join(const MaxMinProblem& problem, const Parts& parts, VariableId v);
  void unkeep(const MaxMinProblem& problem, VariableId v);
  void extend(const MaxMinProblem& problem, const Parts& parts);
  void keep(const MaxMinProblem& problem, const Parts& parts);
  bool still_linked(const MaxMinProblem& problem, const Parts& parts);
  void keep_tight(const Parts& parts);

  static constexpr double kLoadsPerKeep = 2;  // "When keeping pays"
  std::size_t keep_min_ = 64;
  bool measured_ = true;  // kept while keeping pays; else always (keep_from)
  MeasuredSwitch switch_{kLoadsPerKeep};
  std::uint64_t fills_ = 0;
  bool kept_ = false;
  std::vector<VariableId> vars_;       // ascending
  std::vector<ConstraintId> cons_;     // every constraint a kept variable uses
  // Every kept constraint without slack, and maybe some listed twice, with slack or no longer
  // kept: those of its last fill, and those it took in or that lost their slack since (a
  // constraint gains its slack only in a fill). A load reads these, not the ~390 of cons_, of
  // which nine in ten are edges on the mixed tree.
  std::vector<ConstraintId> tight_;
  std::vector<char> var_kept_;
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
