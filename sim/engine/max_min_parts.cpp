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
  // Each list may be written one past its last id (an id met again once all were met).
  if (found_vars_.size() <= problem.variable_count()) found_vars_.resize(problem.variable_count() + 1);
  if (found_cons_.size() <= problem.constraint_count()) {
    found_cons_.resize(problem.constraint_count() + 1);
    found_edges_.resize(problem.constraint_count() + 1);
  }
  VariableId* vars = found_vars_.data();
  ConstraintId* cons = found_cons_.data();
  ConstraintId* edges = found_edges_.data();
  std::size_t nv = 0, nc = 0, ne = 0;
  bool took_in = false;
  auto visit_cons = [&](ConstraintId c) {
    const bool fresh = cons_part_[c] != epoch_;
    const bool slack = slack_[c] != 0;
    cons_part_[c] = epoch_;
    cons[nc] = c;
    edges[ne] = c;
    nc += fresh & !slack;
    ne += fresh & slack;
  };
  auto visit_var = [&](VariableId v) {
    const std::uint64_t was = var_part_[v];
    const bool fresh = was != epoch_;
    took_in |= fresh & (was >= solve_first_);
    var_part_[v] = epoch_;
    vars[nv] = v;
    nv += fresh;
  };
  if (seed_var >= 0) {
    visit_var(seed_var);
  } else {
    visit_cons(seed_cons);
  }
  std::size_t vi = 0, ci = 0;
  while (vi < nv || ci < nc) {
    for (; vi < nv; ++vi) {
      if (vi + kPrefetchAhead < nv) prefetch(&problem.var(vars[vi + kPrefetchAhead]));
      for (const MaxMinProblem::Element& e : problem.var(vars[vi]).elems) visit_cons(e.c);
    }
    for (; ci < nc; ++ci) {
      for (const MaxMinProblem::Entry& en : problem.cons(cons[ci]).entries) visit_var(en.v);
    }
  }
  took_in_ = took_in_ || took_in;
  vars_.assign(vars, vars + nv);
  cons_.assign(cons, cons + nc);
  edges_.assign(edges, edges + ne);
  sort_ids(vars_, var_part_, epoch_);
}

}  // namespace placesim::engine
