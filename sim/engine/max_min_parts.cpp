#include "sim/engine/max_min_parts.hpp"

#include <algorithm>

#include "sim/core/prefetch.hpp"

namespace placesim::engine {

namespace {

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

// Breadth-first over variable -> constraint -> variable links, not through edges. Whether an
// id was met already follows no pattern a predictor learns (on the mixed tree each variable is
// met from about four constraints, in search order), so nothing branches on it: each id met is
// written at the end of its list, and the list grows only when it was new (the lists have room
// for every id). Same order as a search that branches; on the mixed tree at 10k flows the
// search was a quarter of `placesim simulate`.
void Parts::collect(const MaxMinProblem& problem, VariableId seed_var, ConstraintId seed_cons) {
  start();
  Search at = begin_search(problem);
  if (seed_var >= 0) {
    visit_var(at, seed_var);
  } else {
    visit_cons(at, seed_cons);
  }
  search(problem, at, 0, 0);
}

// A new part (a new epoch: the fill's record tells constraints new to a part by it) holding the
// old one's variables and constraints, searched already; its edges without slack now join its
// constraints and the search goes on from them. A fresh search from the seed would find the same
// variables, constraints and edges: everything it meets through the part's constraints is in the
// part already, and the rest lies behind the edges that lost their slack. On the mixed tree
// at 10k flows one fill in six widens, and searching its part again from the seed was a quarter
// of the searches.
void Parts::widen(const MaxMinProblem& problem) {
  ++epoch_;
  Search at = begin_search(problem);
  for (VariableId v : vars_) {
    var_part_[v] = epoch_;
    found_vars_[at.nv++] = v;
  }
  for (ConstraintId c : cons_) {
    cons_part_[c] = epoch_;
    found_cons_[at.nc++] = c;
  }
  const std::size_t searched = at.nc;
  for (ConstraintId c : edges_) {
    cons_part_[c] = epoch_;
    if (slack_[c]) {
      found_edges_[at.ne++] = c;
    } else {
      found_cons_[at.nc++] = c;
    }
  }
  search(problem, at, at.nv, searched);
}

void Parts::load(const MaxMinProblem& problem, const std::vector<VariableId>& vars, const std::vector<ConstraintId>& cons,
                 bool with_edges) {
  start();
  Search at = begin_search(problem);
  const std::uint64_t epoch = epoch_;
  for (VariableId v : vars) var_part_[v] = epoch;
  vars_.assign(vars.begin(), vars.end());
  // Only the constraints without slack are stamped: an edge's stamp is never read (fills() asks
  // for no slack, and an edge a change reaches is a part of its own, MaxMinSystem::solve_part).
  // On the mixed tree nine in ten are edges, and their stamps were most of a load's cache
  // misses: skipping them took `placesim simulate`'s first-level misses from 37.7M to 34.8M
  // (cachegrind), though its model mispredicts this branch on one constraint in seven.
  for (ConstraintId c : cons) {
    if (slack_[c]) {
      if (with_edges) found_edges_[at.ne++] = c;
    } else if (cons_part_[c] != epoch) {
      cons_part_[c] = epoch;
      found_cons_[at.nc++] = c;
    }
  }
  cons_.assign(found_cons_.data(), found_cons_.data() + at.nc);
  edges_.assign(found_edges_.data(), found_edges_.data() + at.ne);
}

Parts::Search Parts::begin_search(const MaxMinProblem& problem) {
  // Each list may be written one past its last id (an id met again once all were met).
  if (found_vars_.size() <= problem.variable_count()) found_vars_.resize(problem.variable_count() + 1);
  if (found_cons_.size() <= problem.constraint_count()) {
    found_cons_.resize(problem.constraint_count() + 1);
    found_edges_.resize(problem.constraint_count() + 1);
  }
  return Search{};
}

inline void Parts::visit_cons(Search& at, ConstraintId c) {
  const bool fresh = cons_part_[c] != epoch_;
  const bool slack = slack_[c] != 0;
  cons_part_[c] = epoch_;
  found_cons_[at.nc] = c;
  found_edges_[at.ne] = c;
  at.nc += fresh & !slack;
  at.ne += fresh & slack;
}

inline void Parts::visit_var(Search& at, VariableId v) {
  const bool fresh = var_part_[v] != epoch_;
  var_part_[v] = epoch_;
  found_vars_[at.nv] = v;
  at.nv += fresh;
}

// The search from the variables from `vi` and the constraints from `ci` on; then the lists.
void Parts::search(const MaxMinProblem& problem, Search& at, std::size_t vi, std::size_t ci) {
  while (vi < at.nv || ci < at.nc) {
    for (; vi < at.nv; ++vi) {
      if (vi + kPrefetchAhead < at.nv) prefetch(&problem.var(found_vars_[vi + kPrefetchAhead]));
      for (const MaxMinProblem::Element& e : problem.var(found_vars_[vi]).elems) visit_cons(at, e.c);
    }
    for (; ci < at.nc; ++ci) {
      for (const MaxMinProblem::Entry& en : problem.cons(found_cons_[ci]).entries) visit_var(at, en.v);
    }
  }
  vars_.assign(found_vars_.data(), found_vars_.data() + at.nv);
  cons_.assign(found_cons_.data(), found_cons_.data() + at.nc);
  edges_.assign(found_edges_.data(), found_edges_.data() + at.ne);
  sort_ids(vars_, var_part_, epoch_);
}

}  // namespace placesim::engine
