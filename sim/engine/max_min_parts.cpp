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

// Breadth-first over variable -> constraint -> variable links, not through edges.
void Parts::collect(const MaxMinProblem& problem, VariableId seed_var, ConstraintId seed_cons) {
  start();
  auto visit_cons = [&](ConstraintId c) {
    if (cons_part_[c] != epoch_) add_cons(c);
  };
  auto visit_var = [&](VariableId v) {
    if (var_part_[v] != epoch_) add_var(v);
  };
  if (seed_var >= 0) {
    visit_var(seed_var);
  } else {
    visit_cons(seed_cons);
  }
  std::size_t vi = 0, ci = 0;
  while (vi < vars_.size() || ci < cons_.size()) {
    for (; vi < vars_.size(); ++vi) {
      if (vi + kPrefetchAhead < vars_.size()) prefetch(&problem.var(vars_[vi + kPrefetchAhead]));
      for (const MaxMinProblem::Element& e : problem.var(vars_[vi]).elems) visit_cons(e.c);
    }
    for (; ci < cons_.size(); ++ci) {
      for (const MaxMinProblem::Entry& en : problem.cons(cons_[ci]).entries) visit_var(en.v);
    }
  }
  sort_ids(vars_, var_part_, epoch_);
}

}  // namespace placesim::engine
