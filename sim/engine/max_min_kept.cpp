#include "sim/engine/max_min_kept.hpp"

#include <algorithm>

namespace placesim::engine {

namespace {

// A link check searches at least this many entries before it gives up, however small the part.
constexpr std::size_t kLinkBudgetMin = 64;

}  // namespace

// A kept variable, a variable on a kept constraint without slack (expand leaves every
// constraint of a new variable without), or a kept constraint without slack. A constraint with
// slack is a part of its own (Parts::collect).
bool KeptPart::reaches(const MaxMinProblem& problem, const Parts& parts, VariableId seed_var,
                       ConstraintId seed_cons) const {
  if (seed_var < 0) return cons_kept_[seed_cons] > 0 && !parts.slack(seed_cons);
  return var_kept_[seed_var] || links_to_kept(problem, parts, seed_var);
}

bool KeptPart::links_to_kept(const MaxMinProblem& problem, const Parts& parts, VariableId v) const {
  for (const MaxMinProblem::Element& e : problem.var(v).elems) {
    if (cons_kept_[e.c] > 0 && !parts.slack(e.c)) return true;
  }
  return false;
}

// One more kept variable uses c; whether c is new to the kept part.
bool KeptPart::count(ConstraintId c) {
  if (cons_kept_[c]++ > 0) return false;
  kept_at_[c] = static_cast<std::uint32_t>(cons_.size());
  cons_.push_back(c);
  return true;
}

// Takes v into the kept part (not into vars_: extend merges them); a constraint new to the part
// and without slack is queued to be searched behind.
void KeptPart::join(const MaxMinProblem& problem, const Parts& parts, VariableId v) {
  var_kept_[v] = 1;
  joined_.push_back(v);
  for (const MaxMinProblem::Element& e : problem.var(v).elems) {
    if (count(e.c) && !parts.slack(e.c)) links_.queue(e.c);
  }
}

// What lies behind c is searched before the next fill when c lost its slack or is new to the
// part, and v joins then if it is not kept yet.
void KeptPart::after_expand(VariableId v, ConstraintId c, bool had_slack, bool added) {
  if (!var_kept_[v] && cons_kept_[c] == 0) return;
  if (had_slack || cons_kept_[c] == 0) grown_.push_back(c);
  if (!var_kept_[v]) {
    joining_.push_back(v);
  } else if (added) {
    count(c);
  }
}

void KeptPart::unkeep(const MaxMinProblem& problem, VariableId v) {
  var_kept_[v] = 0;
  for (const MaxMinProblem::Element& e : problem.var(v).elems) {
    if (--cons_kept_[e.c] > 0) continue;
    const ConstraintId last = cons_.back();
    kept_at_[last] = kept_at_[e.c];
    cons_[kept_at_[e.c]] = last;
    cons_.pop_back();
  }
}

// Brings the kept part up to date with the changes noted since it was last loaded, as a search
// would find it: the variables added onto it, and everything linked through constraints without
// slack behind the constraints noted (grown_), and behind those it takes in.
void KeptPart::extend(const MaxMinProblem& problem, const Parts& parts) {
  links_.start();
  joined_.clear();
  for (ConstraintId c : grown_) {
    if (cons_kept_[c] > 0 && !parts.slack(c)) links_.queue(c);
  }
  for (VariableId v : joining_) {
    // Ids are reused: a variable noted, removed, and its id given to one elsewhere is skipped.
    if (problem.alive(v) && !var_kept_[v] && links_to_kept(problem, parts, v)) {
      join(problem, parts, v);
    }
  }
  grown_.clear();
  joining_.clear();
  for (std::size_t k = 0; k < links_.queued().size(); ++k) {
    for (const MaxMinProblem::Entry& en : problem.cons(links_.queued()[k]).entries) {
      if (!var_kept_[en.v]) join(problem, parts, en.v);
    }
  }
  tight_.insert(tight_.end(), links_.queued().begin(), links_.queued().end());  // kept, without slack
  if (joined_.empty()) return;
  std::sort(joined_.begin(), joined_.end());
  const std::size_t old = vars_.size();
  vars_.insert(vars_.end(), joined_.begin(), joined_.end());
  std::inplace_merge(vars_.begin(), vars_.begin() + static_cast<std::ptrdiff_t>(old), vars_.end());
}

// Its variables and its constraints without slack (tight_) stamped with a new epoch, and its
// edges listed when asked for (from cons_, which holds each constraint once).
void KeptPart::load(const MaxMinProblem& problem, Parts& parts, bool with_edges) {
  extend(problem, parts);
  ++fills_;
  switch_.note_gain(1);  // a search saved
  if (with_edges) {
    parts.load(problem, vars_, cons_, true);
    return;
  }
  std::erase_if(tight_, [this](ConstraintId c) { return cons_kept_[c] == 0; });
  parts.load(problem, vars_, tight_, false);
}

// The current part becomes the kept one.
void KeptPart::keep(const MaxMinProblem& problem, const Parts& parts) {
  drop();
  kept_ = true;
  links_.start();  // join queues constraints, unsearched: the part is whole
  joined_.clear();
  for (VariableId v : parts.vars()) join(problem, parts, v);
  switch_.note_cost(1);  // a search's worth paid
  vars_.assign(parts.vars().begin(), parts.vars().end());
}

void KeptPart::drop() {
  for (VariableId v : vars_) var_kept_[v] = 0;
  for (ConstraintId c : cons_) cons_kept_[c] = 0;
  vars_.clear();
  cons_.clear();
  tight_.clear();
  grown_.clear();
  joining_.clear();
  kept_ = false;
}

// Whether the groups the check added are linked, within a budget of a quarter of the kept part:
// a search of the whole part is then about as cheap, and the part is searched again where next
// needed.
bool KeptPart::still_linked(const MaxMinProblem& problem, const Parts& parts) {
  return links_.join(problem, parts, vars_.size() / 4 + kLinkBudgetMin);
}

// A part found by a search is kept when it is large and at least as large as the kept one, or
// when it took in kept variables (it is then their part, and the kept one is stale). A fill's
// constraints that gain slack leave the kept part whole, whatever they cut ("A union of parts").
void KeptPart::after_fill(const MaxMinProblem& problem, const Parts& parts, bool from_kept) {
  // Each large part filled is a use of keeping; off, nothing is kept.
  const bool large_fill = from_kept || parts.vars().size() >= keep_min_;
  if (measured_ && large_fill && !switch_.use()) {
    drop();
    return;
  }
  if (from_kept) {
    keep_tight(parts);
    return;
  }
  const std::vector<VariableId>& vars = parts.vars();
  const bool overlaps = kept_ && std::any_of(vars.begin(), vars.end(), [this](VariableId v) { return var_kept_[v] != 0; });
  const bool large = vars.size() >= keep_min_ && (!kept_ || vars.size() >= vars_.size());
  if (!overlaps && !large) return;
  if (vars.size() < keep_min_) {
    drop();
    return;
  }
  keep(problem, parts);
  keep_tight(parts);
}

// The kept part's constraints without slack, once its fill has set which have slack.
void KeptPart::keep_tight(const Parts& parts) {
  tight_.clear();
  for (ConstraintId c : parts.cons()) {
    if (!parts.slack(c)) tight_.push_back(c);
  }
}

// The part stays kept when the constraints without slack v used, and kept variables still use,
// are linked without it. Not for exactness (what is left of a union of parts is one): where they
// are not, its parts have likely drifted apart for good, and filling them together at every
// change of any would cost more than searching ("Why whole").
void KeptPart::after_removal(const MaxMinProblem& problem, const Parts& parts, VariableId v) {
  unkeep(problem, v);
  vars_.erase(std::lower_bound(vars_.begin(), vars_.end(), v));
  if (vars_.empty()) {
    drop();
    return;
  }
  links_.start();
  for (const MaxMinProblem::Element& e : problem.var(v).elems) {
    if (!parts.slack(e.c) && cons_kept_[e.c] > 0 && links_.queue(e.c)) links_.add(e.c, e.c);
  }
  if (!still_linked(problem, parts)) drop();
}

// A search from each kept variable finds a part within the kept one, and the kept constraints and
// their counts are those of its variables.
bool KeptPart::is_closed(const MaxMinProblem& problem, Parts& parts) const {
  if (!kept_) return true;
  if (!std::is_sorted(vars_.begin(), vars_.end())) return false;
  const auto flagged = std::count(var_kept_.begin(), var_kept_.end(), 1);
  if (static_cast<std::size_t>(flagged) != vars_.size()) return false;
  std::vector<ConstraintId> used;
  for (VariableId v : vars_) {
    if (!problem.alive(v)) return false;
    parts.collect(problem, v, -1);
    for (VariableId w : parts.vars()) {
      if (!var_kept_[w]) return false;
    }
    for (const MaxMinProblem::Element& e : problem.var(v).elems) used.push_back(e.c);
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::vector<ConstraintId> kept = cons_;
  std::sort(kept.begin(), kept.end());
  if (used != kept) return false;
  for (ConstraintId c : cons_) {
    std::int32_t n = 0;
    for (const MaxMinProblem::Entry& en : problem.cons(c).entries) n += var_kept_[en.v];
    if (n != cons_kept_[c] || cons_[kept_at_[c]] != c) return false;
  }
  return true;
}

}  // namespace placesim::engine
