// The kept part: the last large part filled, kept between solves while it is exactly the part a
// search would find (max_min.hpp, "Kept parts").
#include <algorithm>

#include "sim/engine/max_min.hpp"

namespace placesim::engine {

namespace {

// A link check searches at least this many entries before it gives up, however small the part.
constexpr std::size_t kLinkBudgetMin = 64;

}  // namespace

// Whether a change's part is the kept one: a kept variable, a variable on a kept constraint
// without slack (expand leaves every constraint of a new variable without), or a kept
// constraint without slack. A constraint with slack is a part of its own (collect_part).
bool MaxMinSystem::reaches_kept(VariableId seed_var, ConstraintId seed_cons) const {
  if (seed_var < 0) return cons_kept_[seed_cons] > 0 && !slack_[seed_cons];
  return var_kept_[seed_var] || links_to_kept(seed_var);
}

bool MaxMinSystem::links_to_kept(VariableId v) const {
  for (const Element& e : vars_[v].elems) {
    if (cons_kept_[e.c] > 0 && !slack_[e.c]) return true;
  }
  return false;
}

// One more kept variable uses c; whether c is new to the kept part.
bool MaxMinSystem::count_kept(ConstraintId c) {
  if (cons_kept_[c]++ > 0) return false;
  kept_at_[c] = static_cast<std::uint32_t>(kept_cons_.size());
  kept_cons_.push_back(c);
  return true;
}

// Takes v into the kept part (not into kept_vars_: extend_kept merges them); a constraint new
// to the part and without slack is queued to be searched behind.
void MaxMinSystem::join_kept(VariableId v) {
  var_kept_[v] = 1;
  joined_.push_back(v);
  for (const Element& e : vars_[v].elems) {
    if (count_kept(e.c) && !slack_[e.c]) queue_link(e.c);
  }
}

// v was expanded onto c (`added`: a new element; `had_slack`: c had slack before), with v or c
// kept. What lies behind c is searched before the next fill when c lost its slack or is new to
// the part, and v joins then if it is not kept yet.
void MaxMinSystem::kept_after_expand(VariableId v, ConstraintId c, bool had_slack, bool added) {
  if (!var_kept_[v] && cons_kept_[c] == 0) return;
  if (had_slack || cons_kept_[c] == 0) kept_grown_.push_back(c);
  if (!var_kept_[v]) {
    kept_joining_.push_back(v);
  } else if (added) {
    count_kept(c);
  }
}

void MaxMinSystem::unkeep_var(VariableId v) {
  var_kept_[v] = 0;
  for (const Element& e : vars_[v].elems) {
    if (--cons_kept_[e.c] > 0) continue;
    const ConstraintId last = kept_cons_.back();
    kept_at_[last] = kept_at_[e.c];
    kept_cons_[kept_at_[e.c]] = last;
    kept_cons_.pop_back();
  }
}

// Brings the kept part up to date with the changes noted since it was last loaded, as a search
// would find it: the variables added onto it, and everything linked through constraints without
// slack behind the constraints noted (kept_grown_), and behind those it takes in.
void MaxMinSystem::extend_kept() {
  start_links();
  joined_.clear();
  for (ConstraintId c : kept_grown_) {
    if (cons_kept_[c] > 0 && !slack_[c]) queue_link(c);
  }
  for (VariableId v : kept_joining_) {
    // Ids are reused: a variable noted, removed, and its id given to one elsewhere is skipped.
    if (alive(v) && !var_kept_[v] && links_to_kept(v)) join_kept(v);
  }
  kept_grown_.clear();
  kept_joining_.clear();
  for (std::size_t k = 0; k < link_queue_.size(); ++k) {
    for (const Entry& en : cons_[link_queue_[k]].entries) {
      if (!var_kept_[en.v]) join_kept(en.v);
    }
  }
  if (joined_.empty()) return;
  std::sort(joined_.begin(), joined_.end());
  const std::size_t old = kept_vars_.size();
  kept_vars_.insert(kept_vars_.end(), joined_.begin(), joined_.end());
  std::inplace_merge(kept_vars_.begin(), kept_vars_.begin() + static_cast<std::ptrdiff_t>(old), kept_vars_.end());
}

// The kept part as collect_part leaves a part: its variables and constraints stamped with a new
// epoch, the constraints split into those without slack and the edges.
void MaxMinSystem::load_kept() {
  extend_kept();
  ++kept_fills_;
  ++part_epoch_;
  part_vars_.assign(kept_vars_.begin(), kept_vars_.end());
  for (VariableId v : part_vars_) var_part_[v] = part_epoch_;
  part_cons_.clear();
  part_edge_.clear();
  for (ConstraintId c : kept_cons_) {
    cons_part_[c] = part_epoch_;
    (slack_[c] ? part_edge_ : part_cons_).push_back(c);
  }
}

void MaxMinSystem::keep_part() {
  drop_kept();
  kept_ = true;
  start_links();  // join_kept queues constraints, unsearched: the part is whole
  joined_.clear();
  for (VariableId v : part_vars_) join_kept(v);
  kept_vars_.assign(part_vars_.begin(), part_vars_.end());
}

void MaxMinSystem::drop_kept() {
  for (VariableId v : kept_vars_) var_kept_[v] = 0;
  for (ConstraintId c : kept_cons_) cons_kept_[c] = 0;
  kept_vars_.clear();
  kept_cons_.clear();
  kept_grown_.clear();
  kept_joining_.clear();
  kept_ = false;
}

// After a part's fill, once its constraints' slack is set: a part found by a search is kept when
// it is large and at least as large as the kept one, or when it took in kept variables (it is
// then their part, and the kept one is stale). The kept part stays whole only if the
// constraints that gained slack cut nothing off (header comment, "Kept parts").
void MaxMinSystem::kept_after_fill(bool from_kept) {
  if (!from_kept) {
    const bool overlaps = kept_ && std::any_of(part_vars_.begin(), part_vars_.end(), [this](VariableId v) { return var_kept_[v] != 0; });
    const bool large = part_vars_.size() >= keep_min_ && (!kept_ || part_vars_.size() >= kept_vars_.size());
    if (!overlaps && !large) return;
    if (part_vars_.size() < keep_min_) {
      drop_kept();
      return;
    }
    keep_part();
  }
  start_links();
  for (ConstraintId c : part_cons_) {
    if (!slack_[c]) continue;
    for (const Entry& en : cons_[c].entries) {
      ConstraintId first = -1;
      for (const Element& e : vars_[en.v].elems) {
        if (slack_[e.c]) continue;
        if (queue_link(e.c)) link_add(e.c, e.c);
        if (first < 0) {
          first = e.c;
        } else {
          link_union(first, e.c);
        }
      }
      if (first < 0) {  // a variable with no constraint without slack left is a part of its own
        drop_kept();
        return;
      }
    }
  }
  if (!links_join()) drop_kept();
}

// A kept variable removed (its entries already gone): the part stays whole when the constraints
// without slack it used, and kept variables still use, are linked without it.
void MaxMinSystem::kept_after_removal(VariableId v) {
  unkeep_var(v);
  kept_vars_.erase(std::lower_bound(kept_vars_.begin(), kept_vars_.end(), v));
  if (kept_vars_.empty()) {
    drop_kept();
    return;
  }
  start_links();
  for (const Element& e : vars_[v].elems) {
    if (!slack_[e.c] && cons_kept_[e.c] > 0 && queue_link(e.c)) link_add(e.c, e.c);
  }
  if (!links_join()) drop_kept();
}

// A new extension or link check: nothing met, queued or grouped yet.
void MaxMinSystem::start_links() {
  ++link_epoch_;
  link_queue_.clear();
  link_groups_ = 0;
}

// Queues c to be searched from, the first time it is met since start_links(); whether it was.
bool MaxMinSystem::queue_link(ConstraintId c) {
  if (link_seen_[c] == link_epoch_) return false;
  link_seen_[c] = link_epoch_;
  link_queue_.push_back(c);
  return true;
}

ConstraintId MaxMinSystem::link_find(ConstraintId c) {
  while (link_root_[c] != c) c = link_root_[c] = link_root_[link_root_[c]];
  return c;
}

// c, met, joins the check in root's group (its own when root == c).
void MaxMinSystem::link_add(ConstraintId c, ConstraintId root) {
  link_seen_[c] = link_epoch_;
  link_root_[c] = root;
  link_groups_ += root == c;
}

void MaxMinSystem::link_union(ConstraintId a, ConstraintId b) {
  a = link_find(a);
  b = link_find(b);
  if (a == b) return;
  link_root_[a] = b;
  --link_groups_;
}

// Whether the groups of constraints added (link_add, link_union) are all linked through
// variables and constraints without slack: a search from the queued constraints joins the groups
// it meets, and stops once one is left. The group with the most entries is only met, not
// searched from: it is usually most of what must be joined. The queued constraints are searched
// from those with the fewest variables up, and a constraint the search meets is searched next,
// before the rest of the queue: when a link with slack regains it, its flows' other links are
// dozens of groups, each joined to all the others through any uplink behind one of them, so
// going deep joins them in two steps where going level by level searched every group first.
// The search gives up (false) past a budget of entries, a fraction of the kept part: a search
// of the whole part is then about as cheap, and the part is searched again where next needed.
bool MaxMinSystem::links_join() {
  if (link_groups_ <= 1) return true;
  for (ConstraintId c : link_queue_) link_weight_[link_find(c)] = 0;
  ConstraintId largest = -1;
  for (ConstraintId c : link_queue_) {
    const ConstraintId r = link_find(c);
    link_weight_[r] += cons_[c].entries.size();
    if (largest < 0 || link_weight_[r] > link_weight_[largest] || (link_weight_[r] == link_weight_[largest] && r < largest)) largest = r;
  }
  std::erase_if(link_queue_, [&](ConstraintId c) { return link_find(c) == largest; });
  std::sort(link_queue_.begin(), link_queue_.end(), [this](ConstraintId a, ConstraintId b) {
    return cons_[a].entries.size() != cons_[b].entries.size() ? cons_[a].entries.size() < cons_[b].entries.size() : a < b;
  });
  link_met_.clear();
  std::size_t budget = kept_vars_.size() / 4 + kLinkBudgetMin;
  for (std::size_t k = 0; k < link_queue_.size() || !link_met_.empty();) {
    ConstraintId c;
    if (!link_met_.empty()) {
      c = link_met_.back();
      link_met_.pop_back();
    } else {
      c = link_queue_[k++];
    }
    for (const Entry& en : cons_[c].entries) {
      if (budget-- == 0) return false;
      for (const Element& e : vars_[en.v].elems) {
        if (slack_[e.c] || e.c == c) continue;
        if (link_seen_[e.c] != link_epoch_) {
          link_add(e.c, link_find(c));
          link_met_.push_back(e.c);
        } else {
          link_union(c, e.c);
          if (link_groups_ == 1) return true;
        }
      }
    }
  }
  return false;
}

bool MaxMinSystem::kept_part_is_searched() {
  if (!kept_) return true;
  if (!std::is_sorted(kept_vars_.begin(), kept_vars_.end())) return false;
  collect_part(kept_vars_.front(), -1);
  if (part_vars_ != kept_vars_) return false;
  std::vector<ConstraintId> searched = part_cons_, kept = kept_cons_;
  searched.insert(searched.end(), part_edge_.begin(), part_edge_.end());
  std::sort(searched.begin(), searched.end());
  std::sort(kept.begin(), kept.end());
  if (searched != kept) return false;
  for (ConstraintId c : kept_cons_) {
    std::int32_t n = 0;
    for (const Entry& en : cons_[c].entries) n += var_kept_[en.v];
    if (n != cons_kept_[c] || kept_cons_[kept_at_[c]] != c) return false;
  }
  const auto flagged = std::count(var_kept_.begin(), var_kept_.end(), 1);
  return static_cast<std::size_t>(flagged) == kept_vars_.size();
}

}  // namespace placesim::engine
