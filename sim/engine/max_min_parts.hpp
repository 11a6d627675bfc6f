// Where the solver cuts components into parts (max_min.hpp, "Parts"): per constraint, whether it
// had slack when last solved, so that it joins no part; and the part being filled, found by a
// search from a change (collect) or loaded from the kept part (max_min_kept.hpp). Each part gets
// a new epoch: a variable or constraint stamped with it is in the current part, and a stamp
// below a solve's first epoch says it was in no part of that solve yet (MaxMinSystem::solve).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/engine/max_min_problem.hpp"

namespace placesim::engine {

class Parts {
 public:
  void add_variable() { var_part_.push_back(0); }
  void add_constraint() {
    slack_.push_back(0);
    cons_part_.push_back(0);
  }

  bool slack(ConstraintId c) const { return slack_[c] != 0; }
  void set_slack(ConstraintId c, bool slack) { slack_[c] = slack; }

  std::uint64_t epoch() const { return epoch_; }
  // The epoch of the last part that held v (or c), 0 if none.
  std::uint64_t var_epoch(VariableId v) const { return var_part_[v]; }
  std::uint64_t cons_epoch(ConstraintId c) const { return cons_part_[c]; }
  bool holds(VariableId v) const { return var_part_[v] == epoch_; }
  // Whether c is one of the current part's constraints without slack (those it fills through).
  bool fills(ConstraintId c) const { return cons_part_[c] == epoch_ && !slack_[c]; }
  const std::vector<VariableId>& vars() const { return vars_; }        // ascending
  const std::vector<ConstraintId>& cons() const { return cons_; }      // without slack
  const std::vector<ConstraintId>& edges() const { return edges_; }    // with slack

  // A new, empty part.
  void start() {
    ++epoch_;
    vars_.clear();
    cons_.clear();
    edges_.clear();
  }
  // v joins the current part (callers keep vars() ascending); c joins its constraints or its
  // edges, by its slack.
  void add_var(VariableId v) {
    var_part_[v] = epoch_;
    vars_.push_back(v);
  }
  void add_cons(ConstraintId c) {
    cons_part_[c] = epoch_;
    (slack_[c] ? edges_ : cons_).push_back(c);
  }
  // A new part of the variables `vars` (ascending) and the constraints `cons` without slack (a
  // constraint listed twice joins once), with those with slack as its edges when `with_edges`
  // (cons then lists each once): the kept part, loaded. What add_var and add_cons over them do,
  // in one pass each, but for the edges' stamps (max_min_parts.cpp): on the mixed tree at 10k
  // flows a load is some 160 variables and 390 constraints, and a call for each was 4% of
  // `placesim simulate`'s instructions.
  void load(const MaxMinProblem& problem, const std::vector<VariableId>& vars, const std::vector<ConstraintId>& cons,
            bool with_edges);
  // Those of `cons` with slack join the current part's edges (each listed once, none an edge
  // yet): the kept part's, when it was loaded without them.
  void add_edges(const std::vector<ConstraintId>& cons) {
    for (ConstraintId c : cons) {
      if (slack_[c]) edges_.push_back(c);
    }
  }
  // A new part: the variables linked to a changed variable or constraint through constraints
  // without slack (a constraint with slack is only an edge: its load changes, nothing is filled
  // through it).
  void collect(const MaxMinProblem& problem, VariableId seed_var, ConstraintId seed_cons);
  // The current part, searched, widened over its edges that lost their slack since (set_slack):
  // what collect() from its seed would find now.
  void widen(const MaxMinProblem& problem);

 private:
  std::vector<char> slack_;
  std::uint64_t epoch_ = 0;
  std::vector<std::uint64_t> var_part_;
  std::vector<std::uint64_t> cons_part_;
  std::vector<VariableId> vars_;
  std::vector<ConstraintId> cons_;
  std::vector<ConstraintId> edges_;
  // A search's place in its lists (max_min_parts.cpp).
  struct Search {
    std::size_t nv = 0, nc = 0, ne = 0;
  };
  Search begin_search(const MaxMinProblem& problem);
  void visit_cons(Search& at, ConstraintId c);
  void visit_var(Search& at, VariableId v);
  void search(const MaxMinProblem& problem, Search& at, std::size_t vi, std::size_t ci);

  // A search's lists while it searches, with room for every id (max_min_parts.cpp).
  std::vector<VariableId> found_vars_;
  std::vector<ConstraintId> found_cons_;
  std::vector<ConstraintId> found_edges_;
};

}  // namespace placesim::engine
