#include "sim/engine/max_min_replay.hpp"

#include <algorithm>
#include <limits>

namespace placesim::engine {

// Found among the variables changed since the record was made, not in each of the part's:
// reading each variable for its record was a quarter of the fill on the tree, where a few changed.
std::uint32_t ReplayRecord::first_changed(const Parts& parts) const {
  std::uint32_t changed_at = static_cast<std::uint32_t>(rec_.fixed.size());
  auto note_changed = [&](VariableId v) {
    if (var_rec_[v] == rec_.id && var_mod_[v] > rec_.made) {
      changed_at = std::min(changed_at, fix_pos_[v]);
    }
  };
  if (modified_lost_) {
    for (VariableId v : parts.vars()) note_changed(v);
  } else {
    for (VariableId v : modified_) {
      if (parts.holds(v)) note_changed(v);
    }
  }
  return changed_at;
}

void ReplayRecord::start(std::uint64_t solve) {
  next_.id = ++rec_serial_;
  next_.made = solve;
  next_.steps.clear();
  next_.fixed.clear();
  next_.log.clear();
  touched_record_ = false;
}

// The fill's record replaces the last one when it set the rate of any variable the last one
// had fixed (which that record no longer describes), or when it is at least as large; a smaller
// fill of another part leaves the record of the large part in place for that part's next fill.
// A fill whose clamp acted leaves none.
void ReplayRecord::finish(bool clamp_free, const std::vector<ConstraintId>& part_cons) {
  if (!clamp_free) {
    rec_.id = 0;
    return;
  }
  if (!touched_record_ && rec_.id != 0 && next_.fixed.size() < rec_.fixed.size()) return;
  std::swap(rec_, next_);
  modified_.clear();  // each changed before it was made
  modified_lost_ = false;
  for (ConstraintId c : part_cons) cons_[c].rec = rec_.id;
}

std::size_t ReplayRecord::replay(const MaxMinProblem& problem, const std::vector<double>& rates,
                                 const Parts& parts, FillState& fill,
                                 std::vector<ConstraintId>& fixed_by, double& level,
                                 std::uint32_t changed_at) {
  start_constraints(problem, parts, fill);
  // Nothing to replay, or too little left unchanged to be worth it.
  if (rec_.id == 0 || rec_.steps.empty() || walks_.size() * 2 > parts.cons().size()) return 0;
  const double limit = bound_limit(fill.bounded());
  start_walks(problem);
  std::size_t k = 0;
  std::uint32_t fixed_begin = 0, log_begin = 0;
  for (; k < rec_.steps.size(); ++k) {
    const Step& st = rec_.steps[k];
    if (!takes(st, parts, fill, limit, changed_at)) break;
    take(st, fixed_begin, log_begin, parts, fill, fixed_by);
    walk(st, problem, rates, fill);
    record_step(st.level, st.c, st.bounded);
    level = st.level;
    fixed_begin = st.fixed_end;
    log_begin = st.log_end;
  }
  touched_record_ = touched_record_ || k > 0;
  replayed_steps_ += k;
  return k;
}

// Every part constraint's state before any step: its recorded initial U_c if it is in the
// recorded part and unchanged since, else summed (and walked).
void ReplayRecord::start_constraints(const MaxMinProblem& problem, const Parts& parts,
                                     FillState& fill) {
  walks_.clear();
  walk_fixes_.clear();
  for (ConstraintId c : parts.cons()) {
    const std::vector<Entry>& entries = problem.cons(c).entries;
    if (!(rec_.id != 0 && cons_[c].rec == rec_.id && cons_[c].mod <= rec_.made)) {
      double u = 0;
      for (const Entry& en : entries) u += en.a;
      cons_[c].usage = u;
      walks_.push_back(Walk{c, 0, 0});
      cons_[c].walked = parts.epoch();
    }
    fill.reset(c, problem.cons(c).capacity, entries, cons_[c].usage);
  }
}

// A bounded variable the record did not fix (or that changed since) may be fixed by its bound
// before a recorded step: the replay stops at the first such bound.
double ReplayRecord::bound_limit(const std::vector<std::pair<double, VariableId>>& bounded) const {
  for (const auto& [bound, v] : bounded) {
    if (var_rec_[v] != rec_.id || var_mod_[v] > rec_.made) return bound;  // bounded is ascending
  }
  return std::numeric_limits<double>::infinity();
}

// Each walked constraint's variables the record fixed (and unchanged since), in fix order.
void ReplayRecord::start_walks(const MaxMinProblem& problem) {
  for (Walk& w : walks_) {
    w.begin = static_cast<std::uint32_t>(walk_fixes_.size());
    for (const Entry& en : problem.cons(w.c).entries) {
      if (var_rec_[en.v] == rec_.id && var_mod_[en.v] <= rec_.made) {
        walk_fixes_.emplace_back(fix_pos_[en.v], en);
      }
    }
    w.end = static_cast<std::uint32_t>(walk_fixes_.size());
    std::sort(walk_fixes_.begin() + w.begin, walk_fixes_.begin() + w.end,
              [](const auto& x, const auto& y) { return x.first < y.first; });
  }
}

// The new fill takes a recorded step only if its constraint (or bounded variable) is the part's
// and unchanged, no changed variable the record fixed comes at or before it (`changed_at`), and
// nothing that can differ from the record comes first: no bound under `limit`, no walked
// constraint at or below its level.
inline bool ReplayRecord::takes(const Step& st, const Parts& parts, const FillState& fill, double limit,
                         std::uint32_t changed_at) const {
  if (!(st.level < limit) || st.fixed_end > changed_at) return false;
  if (st.c >= 0 ? !parts.fills(st.c) || cons_[st.c].walked == parts.epoch()
                : !parts.holds(st.bounded) || var_mod_[st.bounded] > rec_.made) {
    return false;
  }
  return std::all_of(walks_.begin(), walks_.end(), [&](const Walk& w) {
    return fill.unfixed(w.c) == 0 || fill.ratio(w.c) > st.level;
  });
}

// A step taken: its variables are fixed at their recorded rates, which are their rates now, and
// the states it logged of constraints that are not walked are theirs now.
inline void ReplayRecord::take(const Step& st, std::uint32_t fixed_begin, std::uint32_t log_begin,
                        const Parts& parts, FillState& fill, std::vector<ConstraintId>& fixed_by) {
  for (std::uint32_t pos = fixed_begin; pos < st.fixed_end; ++pos) {
    const VariableId v = rec_.fixed[pos];
    fill.mark_fixed(v);
    fixed_by[v] = st.c;  // what fixed it there fixes it now (-1: its bound)
    refix(v);            // the same place in the new record
  }
  for (std::uint32_t i = log_begin; i < st.log_end; ++i) {
    const LogEntry& e = rec_.log[i];
    if (!parts.fills(e.c) || cons_[e.c].walked == parts.epoch()) continue;
    fill.restore(e);
    log(e);
  }
}

// The walked constraints through the step's recorded fixes of their variables.
inline void ReplayRecord::walk(const Step& st, const MaxMinProblem& problem,
                        const std::vector<double>& rates, FillState& fill) {
  for (Walk& w : walks_) {
    const std::uint32_t from = w.begin;
    for (; w.begin < w.end && walk_fixes_[w.begin].first < st.fixed_end; ++w.begin) {
      const Entry& en = walk_fixes_[w.begin].second;
      fill.subtract(w.c, en.a, rates[en.v]);
    }
    if (w.begin == from) continue;
    if (fill.unfixed(w.c) > 0) fill.update_ratio(w.c, problem.cons(w.c).entries);
    log(fill.snapshot(w.c));
  }
}

}  // namespace placesim::engine
