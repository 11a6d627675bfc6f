#include "sim/engine/max_min.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/prefetch.hpp"

namespace placesim::engine {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A constraint has slack when its load is under its capacity by this share: far above the
// rounding of sums over even millions of variables (a few ulps each), so a fill that includes
// it never saturates it (max_min.hpp, "Parts").
constexpr double kSlack = 1e-9;

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

ConstraintId MaxMinSystem::add_constraint(double capacity) {
  PLACESIM_ASSERT(capacity > 0 && std::isfinite(capacity), "constraint capacity must be positive and finite");
  cons_.push_back(Cons{capacity, {}});
  cons_seen_.push_back(0);
  remaining_.push_back(0);
  usage_.push_back(0);
  unfixed_.push_back(0);
  ratio_.push_back(0);
  key_.push_back(0);
  slack_.push_back(0);
  full_.push_back(0);
  level_.push_back(0);
  grew_.push_back(0);
  edge_load_.push_back(0);
  cons_part_.push_back(0);
  cons_listed_.push_back(0);
  is_touched_.push_back(0);
  cons_mod_.push_back(0);
  cons_rec_.push_back(0);
  rec_usage_.push_back(0);
  cons_walked_.push_back(0);
  cons_kept_.push_back(0);
  kept_at_.push_back(0);
  link_seen_.push_back(0);
  link_root_.push_back(0);
  link_weight_.push_back(0);
  return static_cast<ConstraintId>(cons_.size() - 1);
}

VariableId MaxMinSystem::add_variable(double bound) {
  PLACESIM_ASSERT(bound > 0, "variable bound must be positive");
  VariableId v;
  if (!free_vars_.empty()) {
    v = free_vars_.back();
    free_vars_.pop_back();
  } else {
    v = static_cast<VariableId>(vars_.size());
    vars_.emplace_back();
    rates_.push_back(0);
    var_seen_.push_back(0);
    var_part_.push_back(0);
    var_listed_.push_back(0);
    fixed_.push_back(0);
    if (vars_.size() > changed_bits_.size() * 64) changed_bits_.push_back(0);
    var_mod_.push_back(0);
    var_rec_.push_back(0);
    fix_pos_.push_back(0);
    var_kept_.push_back(0);
    fixed_by_.push_back(-1);
  }
  Var& var = vars_[v];
  var.bound = bound;
  bounded_live_ += bound < kInf;
  rates_[v] = 0;
  note_modified(v);
  mark_var(v);
  return v;
}

// v's entry in c's variables (present).
MaxMinSystem::Entry& MaxMinSystem::entry(ConstraintId c, VariableId v) {
  std::vector<Entry>& entries = cons_[c].entries;
  return *std::lower_bound(entries.begin(), entries.end(), v, [](const Entry& e, VariableId id) { return e.v < id; });
}

void MaxMinSystem::expand(VariableId v, ConstraintId c, double coefficient) {
  PLACESIM_ASSERT(alive(v), "expand on a removed variable");
  PLACESIM_ASSERT(coefficient >= 0 && std::isfinite(coefficient), "coefficient must be finite and >= 0");
  if (coefficient == 0) return;
  Var& var = vars_[v];
  mark_var(v);
  cons_mod_[c] = solve_serial_ + 1;
  note_modified(v);
  const bool had_slack = slack_[c];
  slack_[c] = 0;  // its load grows: it will likely lose its slack, so fill through it at once
  bool added = true;
  for (std::uint32_t k = 0; k < var.elems.size() && added; ++k) {
    if (var.elems.c(k) == c) {
      var.elems.set_a(k, var.elems.a(k) + coefficient);
      entry(c, v).a = var.elems.a(k);
      added = false;
    }
  }
  if (added) {
    var.elems.push_back(Element{c, coefficient});
    std::vector<Entry>& entries = cons_[c].entries;
    const auto at = std::lower_bound(entries.begin(), entries.end(), v, [](const Entry& e, VariableId id) { return e.v < id; });
    entries.insert(at, Entry{v, coefficient});
  }
  if (kept_) kept_after_expand(v, c, had_slack, added);
}

void MaxMinSystem::remove_variable(VariableId v) {
  Var& var = vars_[v];
  PLACESIM_ASSERT(alive(v), "variable removed twice");
  for (const Element& e : var.elems) {
    std::vector<Entry>& entries = cons_[e.c].entries;
    entries.erase(entries.begin() + (&entry(e.c, v) - entries.data()));
    cons_mod_[e.c] = solve_serial_ + 1;
    mark_cons(e.c);
  }
  if (var_kept_[v]) kept_after_removal(v);
  var.elems.clear();
  bounded_live_ -= var.bound < kInf;
  var.bound = 0;
  rates_[v] = 0;
  free_vars_.push_back(v);
}

double MaxMinSystem::load(ConstraintId c) const {
  double load = 0;
  for (const Entry& en : cons_[c].entries) load += en.a * rates_[en.v];
  return load;
}

void MaxMinSystem::mark_var(VariableId v) { dirty_vars_.push_back(v); }

void MaxMinSystem::note_modified(VariableId v) {
  var_mod_[v] = solve_serial_ + 1;
  if (modified_lost_) return;
  if (modified_.size() >= vars_.size()) {
    modified_lost_ = true;
    modified_.clear();
    return;
  }
  modified_.push_back(v);
}

void MaxMinSystem::mark_cons(ConstraintId c) { dirty_cons_.push_back(c); }

void MaxMinSystem::solve_all() {
  rec_.id = 0;  // the reference: every component filled from scratch
  drop_kept();
  for (VariableId v = 0; v < static_cast<VariableId>(vars_.size()); ++v) {
    if (alive(v)) mark_var(v);
  }
  for (ConstraintId c = 0; c < static_cast<ConstraintId>(cons_.size()); ++c) {
    mark_cons(c);
    slack_[c] = 0;
  }
  solve();
}

void MaxMinSystem::solve() {
  solved_vars_.clear();
  solved_cons_.clear();
  ++solve_serial_;
  const std::uint64_t first = part_epoch_ + 1;  // parts of this solve have stamps from here on
  int parts = 0;      // that listed variables
  bool whole = true;  // every part met no constraint with slack: each was a whole component
  for (VariableId v : dirty_vars_) {
    if (alive(v) && var_part_[v] < first) {
      parts += solve_part(v, -1);
      whole = whole && part_edge_.empty();
    }
  }
  for (ConstraintId c : dirty_cons_) {
    if (cons_part_[c] < first) {
      parts += solve_part(-1, c);
      whole = whole && part_edge_.empty();
    }
  }
  // Whole components were listed as order_by_component() would order them: seeded in the same
  // sequence (a seed in one already listed is skipped by both), each in ascending id. A part can
  // take in an earlier part of this solve only by widening over a constraint with slack, which
  // was an edge of that earlier part: then not every part was whole, and they are ordered.
  // At 4096 ranks a ring step fills 4096 one-flow components at one instant: searching and
  // sorting them again was a tenth of the event loop.
  if (parts > 1 && !whole) order_by_component();
  dirty_vars_.clear();
  dirty_cons_.clear();
}

// Puts solved_vars_ in the order of a solve by components: component by component, in the order
// of their first change, each in ascending id. (The executor schedules rate changes in this
// order, which orders the events of one instant.) One part lies in one component, in id order.
// Each component searched gets the next epoch, so a variable's stamp is its component's place in
// that order: one sort by (stamp, id) orders them all (not a scan of the solved variables per
// component, which is quadratic when an instant changes thousands of small components, as every
// step of a ring collective on thousands of ranks does).
void MaxMinSystem::order_by_component() {
  const std::uint64_t first = epoch_ + 1;
  for (VariableId v : dirty_vars_) {
    if (alive(v) && var_seen_[v] < first) collect_component(v, -1);
  }
  for (ConstraintId c : dirty_cons_) {
    if (cons_seen_[c] < first) collect_component(-1, c);
  }
  std::sort(solved_vars_.begin(), solved_vars_.end(), [this](VariableId a, VariableId b) {
    return var_seen_[a] != var_seen_[b] ? var_seen_[a] < var_seen_[b] : a < b;
  });
}

// Breadth-first search over variable -> constraint -> variable links; leaves the component's
// variables and constraints in comp_vars_ / comp_cons_ and stamps them epoch_.
void MaxMinSystem::collect_component(VariableId seed_var, ConstraintId seed_cons) {
  comp_vars_.clear();
  comp_cons_.clear();
  ++epoch_;
  if (seed_var >= 0) {
    var_seen_[seed_var] = epoch_;
    comp_vars_.push_back(seed_var);
  } else {
    cons_seen_[seed_cons] = epoch_;
    comp_cons_.push_back(seed_cons);
  }
  std::size_t vi = 0, ci = 0;
  while (vi < comp_vars_.size() || ci < comp_cons_.size()) {
    for (; vi < comp_vars_.size(); ++vi) {
      for (const Element& e : vars_[comp_vars_[vi]].elems) {
        if (cons_seen_[e.c] != epoch_) {
          cons_seen_[e.c] = epoch_;
          comp_cons_.push_back(e.c);
        }
      }
    }
    for (; ci < comp_cons_.size(); ++ci) {
      for (const Entry& en : cons_[comp_cons_[ci]].entries) {
        if (var_seen_[en.v] != epoch_) {
          var_seen_[en.v] = epoch_;
          comp_vars_.push_back(en.v);
        }
      }
    }
  }
}

// The part of a changed variable or constraint: the variables linked to it through
// constraints without slack, in part_vars_ (sorted by id), their constraints without slack in
// part_cons_, those with slack in part_edge_. A constraint with slack is only an edge: its load
// changes, nothing is filled through it.
void MaxMinSystem::collect_part(VariableId seed_var, ConstraintId seed_cons) {
  part_vars_.clear();
  part_cons_.clear();
  part_edge_.clear();
  ++part_epoch_;
  auto visit_cons = [&](ConstraintId c) {
    if (cons_part_[c] == part_epoch_) return;
    cons_part_[c] = part_epoch_;
    (slack_[c] ? part_edge_ : part_cons_).push_back(c);
  };
  auto visit_var = [&](VariableId v) {
    if (var_part_[v] == part_epoch_) return;
    var_part_[v] = part_epoch_;
    part_vars_.push_back(v);
  };
  if (seed_var >= 0) {
    visit_var(seed_var);
  } else {
    visit_cons(seed_cons);
  }
  std::size_t vi = 0, ci = 0;
  while (vi < part_vars_.size() || ci < part_cons_.size()) {
    for (; vi < part_vars_.size(); ++vi) {
      if (vi + kPrefetchAhead < part_vars_.size()) prefetch(&vars_[part_vars_[vi + kPrefetchAhead]]);
      for (const Element& e : vars_[part_vars_[vi]].elems) visit_cons(e.c);
    }
    for (; ci < part_cons_.size(); ++ci) {
      for (const Entry& en : cons_[part_cons_[ci]].entries) visit_var(en.v);
    }
  }
  sort_ids(part_vars_, var_part_, part_epoch_);
}


void MaxMinSystem::heap_sift_up(std::size_t pos) {
  const HeapEntry e = heap_[pos];
  while (pos > 0 && e < heap_[(pos - 1) / 2]) {
    heap_[pos] = heap_[(pos - 1) / 2];
    pos = (pos - 1) / 2;
  }
  heap_[pos] = e;
}

void MaxMinSystem::heap_push(HeapEntry e) {
  heap_.push_back(e);
  heap_sift_up(heap_.size() - 1);
}

void MaxMinSystem::heap_sift_down(std::size_t pos) {
  const HeapEntry e = heap_[pos];
  const std::size_t n = heap_.size();
  for (;;) {
    std::size_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && heap_[child + 1] < heap_[child]) ++child;
    if (!(heap_[child] < e)) break;
    heap_[pos] = heap_[child];
    pos = child;
  }
  heap_[pos] = e;
}

// Floyd's deletion: the hole at the top goes down along the smaller children to a leaf, one
// comparison a level, and the last entry goes up from there (rarely far).
void MaxMinSystem::heap_pop() {
  const HeapEntry last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  std::size_t pos = 0;
  for (std::size_t child = 1; child < n; child = 2 * pos + 1) {
    if (child + 1 < n && heap_[child + 1] < heap_[child]) ++child;
    heap_[pos] = heap_[child];
    pos = child;
  }
  heap_[pos] = last;
  heap_sift_up(pos);
}

void MaxMinSystem::heap_settle() {
  while (!heap_.empty()) {
    HeapEntry& top = heap_.front();
    if (unfixed_[top.c] == 0 || top.key != key_[top.c]) {
      heap_pop();
    } else if (ratio_[top.c] != top.key) {
      top.key = key_[top.c] = ratio_[top.c];
      heap_sift_down(0);
    } else {
      return;
    }
  }
}

void MaxMinSystem::update_ratio(ConstraintId c) {
  if (!(usage_[c] > 0)) {
    // U_c is kept by subtraction; should rounding leave it non-positive while variables remain,
    // sum it again from the remaining variables (in id order).
    double u = 0;
    for (const Entry& en : cons_[c].entries) {
      if (!fixed_[en.v]) u += en.a;
    }
    usage_[c] = u;
  }
  ratio_[c] = remaining_[c] / usage_[c];
}

void MaxMinSystem::set_rate(VariableId v, double x) {
  const Var& var = vars_[v];
  if (x != rates_[v]) {
    changed_bits_[static_cast<std::size_t>(v) >> 6] |= std::uint64_t{1} << (v & 63);
    changed_lo_ = std::min(changed_lo_, v);
    changed_hi_ = std::max(changed_hi_, v);
  }
  touched_record_ = touched_record_ || var_rec_[v] == rec_.id;  // the record's rate may move
  if (x > rates_[v]) {
    for (const Element& e : var.elems) {
      if (!slack_[e.c]) continue;
      edge_load_[e.c] += e.a * (x - rates_[v]);
      if (!grew_[e.c]) {
        grew_[e.c] = 1;
        grown_edges_.push_back(e.c);
      }
    }
  }
  rates_[v] = x;
}

void MaxMinSystem::fix_variable(VariableId v, double value, ConstraintId by) {
  Var& var = vars_[v];
  const double x = std::min(value, var.bound);
  fixed_[v] = 1;
  fixed_by_[v] = by;
  set_rate(v, x);
  fix_pos_[v] = static_cast<std::uint32_t>(next_.fixed.size());
  next_.fixed.push_back(v);
  var_rec_[v] = next_.id;
  for (const Element& e : var.elems) {
    // An edge's R_c, U_c and count are never read: it is not filled through, and its slack is
    // checked on its load, summed from the rates. On the tree, half of a flow's links.
    if (slack_[e.c]) continue;
    remaining_[e.c] -= e.a * x;
    usage_[e.c] -= e.a;
    --unfixed_[e.c];
    if (!is_touched_[e.c]) {
      is_touched_[e.c] = 1;
      touched_.push_back(e.c);
    }
  }
}

// A part of one variable that alone uses each of its constraints, none with slack, or of one
// constraint that no variable uses, has a closed form. The fill's first step fixes the variable
// at min(B_v, min_c C_c / a_vc) (each R_c = C_c and U_c = a_vc; a bound first on a tie, and a
// tie between constraints gives the same value), leaving R_c = C_c - a_vc x_v, and its clamp
// cannot act. It leaves the part, the rate and each R_c as collect_part and fill_part would.
// Every step of a ring collective on thousands of ranks is thousands of these at one instant
// (each flow alone on its link, started and ended by itself), where a search, a fill and a
// record each were a fifth of the event loop. The record is left as it is, as a fill of another
// part leaves it: a record is exact for whichever part replays it ("Replay"). Whether it applied.
bool MaxMinSystem::solve_lone(VariableId seed_var, ConstraintId seed_cons) {
  if (seed_var >= 0) {
    for (const Element& e : vars_[seed_var].elems) {
      if (cons_[e.c].entries.size() != 1 || slack_[e.c]) return false;
    }
  } else if (!cons_[seed_cons].entries.empty()) {
    return false;
  }
  ++part_epoch_;  // the part, as collect_part leaves it
  part_vars_.clear();
  part_cons_.clear();
  part_edge_.clear();
  if (seed_var < 0) {
    cons_part_[seed_cons] = part_epoch_;
    (slack_[seed_cons] ? part_edge_ : part_cons_).push_back(seed_cons);
    remaining_[seed_cons] = cons_[seed_cons].capacity;
    return true;
  }
  const Var& var = vars_[seed_var];
  var_part_[seed_var] = part_epoch_;
  part_vars_.push_back(seed_var);
  double x = var.bound;
  fixed_by_[seed_var] = -1;  // the fill's ties: a bound first, then the lowest constraint id
  for (const Element& e : var.elems) {
    const double q = cons_[e.c].capacity / e.a;
    if (q < x || (q == x && fixed_by_[seed_var] > e.c)) {
      x = q;
      fixed_by_[seed_var] = e.c;
    }
  }
  if (fixed_by_[seed_var] >= 0) level_[fixed_by_[seed_var]] = x;
  set_rate(seed_var, x);
  for (const Element& e : var.elems) {
    cons_part_[e.c] = part_epoch_;
    part_cons_.push_back(e.c);
    remaining_[e.c] = cons_[e.c].capacity - e.a * x;
  }
  return true;
}

// Fills the part of a change (collect_part), widening it over every edge constraint that loses
// its slack, or over all of them when the fill's level clamp acted, until its edges keep their
// slack (or it has none: the part is the whole component). Whether it listed variables. Only
// edges where some rate grew are checked: the others' loads did not grow since they last had
// slack (a variable added to a constraint takes away its slack, a removed one only lowers it).
bool MaxMinSystem::solve_part(VariableId seed_var, ConstraintId seed_cons) {
  bool clamp_free = true;
  // The kept part, when the change reaches it, is this part (header comment, "Kept parts"); it
  // is never lone (its variables share constraints).
  const bool from_kept = kept_ && reaches_kept(seed_var, seed_cons);
  // A lone part is solved already (it has no edges); any other is filled until it needs no widening.
  for (bool widened = from_kept || !solve_lone(seed_var, seed_cons); widened;) {
    if (from_kept) {
      load_kept();
    } else {
      collect_part(seed_var, seed_cons);
    }
    clamp_free = fill_part();
    widened = false;
    for (ConstraintId c : clamp_free ? grown_edges_ : part_edge_) {
      const double capacity = cons_[c].capacity;
      const double limit = capacity - capacity * kSlack;
      // An edge whose bound keeps it under the limit keeps its slack; else its load is summed.
      if (clamp_free && !(edge_load_[c] <= limit)) edge_load_[c] = load(c);
      if (!clamp_free || !(edge_load_[c] <= limit)) {
        slack_[c] = 0;
        widened = true;
        if (from_kept) kept_grown_.push_back(c);  // searched behind when the part is loaded again
      }
    }
    for (ConstraintId c : grown_edges_) grew_[c] = 0;
    grown_edges_.clear();
  }
  // A filled constraint's R_c is what its variables leave of it (summed in fill order).
  for (ConstraintId c : part_cons_) {
    full_[c] = !(remaining_[c] >= cons_[c].capacity * kSlack);
    slack_[c] = clamp_free && !full_[c];
    if (slack_[c]) edge_load_[c] = cons_[c].capacity - remaining_[c];
  }
  for (ConstraintId c : part_edge_) full_[c] = 0;
  kept_after_fill(from_kept);
  // Only the variables whose rate changed, in id order (only the part's can have, since the
  // last listing); a part may take in one solved before in this solve (widened into it): each
  // listed once.
  const std::size_t listed = solved_vars_.size();
  if (changed_lo_ <= changed_hi_) {
    const auto hi_word = static_cast<std::size_t>(changed_hi_) >> 6;
    for (std::size_t w = static_cast<std::size_t>(changed_lo_) >> 6; w <= hi_word; ++w) {
      for (std::uint64_t bits = std::exchange(changed_bits_[w], 0); bits != 0; bits &= bits - 1) {
        const auto v = static_cast<VariableId>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
        if (var_listed_[v] == solve_serial_) continue;
        var_listed_[v] = solve_serial_;
        solved_vars_.push_back(v);
      }
    }
    changed_lo_ = std::numeric_limits<VariableId>::max();
    changed_hi_ = -1;
  }
  for (const std::vector<ConstraintId>* list : {&part_cons_, &part_edge_}) {
    for (ConstraintId c : *list) {
      if (cons_listed_[c] == solve_serial_) continue;
      cons_listed_[c] = solve_serial_;
      solved_cons_.push_back(c);
    }
  }
  return solved_vars_.size() > listed;
}

// fill_part's start. None fixed yet; the bounded ones, if any live; and the first place in the
// record of a variable it fixed that changed since (the replay stops before it), found among
// those changed since it was made. Reading each variable for its bound and its record was a
// quarter of the fill on the tree, where none has a bound and a few changed.
double MaxMinSystem::start_fill() {
  for (VariableId v : part_vars_) fixed_[v] = 0;
  bounded_.clear();
  if (bounded_live_ > 0) {
    for (VariableId v : part_vars_) {
      if (vars_[v].bound < kInf) bounded_.emplace_back(vars_[v].bound, v);
    }
    std::sort(bounded_.begin(), bounded_.end());
  }
  std::uint32_t changed_at = static_cast<std::uint32_t>(rec_.fixed.size());
  auto note_changed = [&](VariableId v) {
    if (var_rec_[v] == rec_.id && var_mod_[v] > rec_.made) changed_at = std::min(changed_at, fix_pos_[v]);
  };
  if (modified_lost_) {
    for (VariableId v : part_vars_) note_changed(v);
  } else {
    for (VariableId v : modified_) {
      if (var_part_[v] == part_epoch_) note_changed(v);
    }
  }
  start_record();
  double level = 0;
  replay(level, changed_at);
  heap_.clear();
  for (ConstraintId c : part_cons_) {
    if (unfixed_[c] == 0) continue;
    key_[c] = ratio_[c];
    heap_.push_back(HeapEntry{key_[c], c});
  }
  for (auto pos = static_cast<std::ptrdiff_t>(heap_.size()) / 2 - 1; pos >= 0; --pos) heap_sift_down(static_cast<std::size_t>(pos));
  return level;
}

// Progressive filling of part_vars_ over part_cons_ (edge constraints have slack and take no
// part), from where the replay of the last fill's record leaves it; recorded for the next.
// False when the level clamp acted: a popped R_c / U_c or bound fell below the level.
bool MaxMinSystem::fill_part() {
  double level = start_fill();
  bool clamp_free = true;
  std::size_t next_bounded = 0;
  std::size_t left = part_vars_.size() - next_.fixed.size();  // variables not yet fixed
  // Once every variable is fixed, nothing is left to pop: the remaining entries are dropped.
  while (left > 0) {
    while (next_bounded < bounded_.size() && fixed_[bounded_[next_bounded].second]) ++next_bounded;
    heap_settle();
    const double by_cons = heap_.empty() ? kInf : heap_.front().key;
    const double by_bound = next_bounded < bounded_.size() ? bounded_[next_bounded].first : kInf;
    if (by_cons == kInf && by_bound == kInf) break;

    ConstraintId popped = -1;
    VariableId bounded = -1;
    if (by_bound <= by_cons) {
      clamp_free = clamp_free && !(by_bound < level);
      level = std::max(level, by_bound);
      bounded = bounded_[next_bounded].second;
      fix_variable(bounded, level, -1);
      --left;
    } else {
      clamp_free = clamp_free && !(by_cons < level);
      level = std::max(level, by_cons);
      popped = heap_.front().c;
      level_[popped] = level;
      const std::vector<Entry>& entries = cons_[popped].entries;
      // Its variables left unfixed first, without a branch on each (about every second one
      // is fixed already, in no pattern a predictor learns), then fixed: fixing one fixes no
      // other of them, so these are the variables and the order of a test-and-fix pass.
      if (unfixed_vars_.size() < entries.size()) unfixed_vars_.resize(entries.size());
      std::size_t n = 0;
      for (const Entry& en : entries) {
        unfixed_vars_[n] = en.v;
        n += !fixed_[en.v];
      }
      for (std::size_t k = 0; k < n; ++k) {
        if (k + kPrefetchAhead < n) prefetch(&vars_[unfixed_vars_[k + kPrefetchAhead]]);
        fix_variable(unfixed_vars_[k], level, popped);
      }
      left -= n;
    }
    for (ConstraintId c : touched_) {
      is_touched_[c] = 0;
      if (unfixed_[c] > 0) {  // else dropped when it surfaces
        update_ratio(c);
        if (ratio_[c] < key_[c]) {
          key_[c] = ratio_[c];
          heap_push(HeapEntry{key_[c], c});
        }
      }
      next_.log.push_back(LogEntry{c, unfixed_[c], remaining_[c], usage_[c], ratio_[c]});
    }
    touched_.clear();
    record_step(level, popped, bounded);
  }

  // Whatever is left touches no constraint without slack and has no bound (nearly always
  // nothing: then no pass over the part).
  if (left > 0) {
    for (VariableId v : part_vars_) {
      if (!fixed_[v]) {
        set_rate(v, kInf);
        fixed_by_[v] = -1;
      }
    }
  }
  finish_record(clamp_free);
  return clamp_free;
}

}  // namespace placesim::engine
