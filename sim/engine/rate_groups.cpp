#include "sim/engine/rate_groups.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "sim/core/error.hpp"
#include "sim/core/prefetch.hpp"

namespace placesim::engine {

namespace {

// Progress (a task's whole work is 1) still undone that counts as done: absorbs the rounding of
// rate and time arithmetic (a few ulps), far below a picosecond for any task under ~100 s.
constexpr double kDoneTolerance = 1e-14;
constexpr double kInfRate = std::numeric_limits<double>::infinity();

// Re-sorting converges (each round splits groups a solve showed mixed); past this many solves
// in an instant the members re-sorted go alone, and a group of one is always consistent.
constexpr int kShareRounds = 4;

// N, the unit an activity is shared in (rate_groups.hpp): its bytes when it moves bytes,
// else the largest amount on its resources. Called only for tasks with some amount > 0. Bytes
// so few that an amount in bytes overflows (a Dha of 1e-320 bytes beside a kernel) fall back
// to the largest amount, so every coefficient a_r / N stays finite.
double natural_unit(const Task& task) {
  double largest = 0;
  for (const Use& u : task.uses) largest = std::max(largest, u.amount);
  const bool moves_bytes = (task.kind == TaskKind::Transfer || task.kind == TaskKind::Dha) && task.bytes > 0;
  return moves_bytes && std::isfinite(largest / task.bytes) ? task.bytes : largest;
}

// A cap so low that it underflows in N keeps the smallest bound: the activity then cannot end
// in representable time, which the executor reports.
double bound_of(double rate_cap, double unit) {
  return std::max(rate_cap * unit, std::numeric_limits<double>::denorm_min());
}

// x = y / N. A tiny N (a transfer of 1e-300 bytes, a kernel of 1e-310 s) can take it past the
// largest double: any x above 1e12 per second ends within the picosecond, so the largest double
// stands for it exactly. A huge N can take it to 0: the activity then never ends in
// representable time, which the executor reports.
double progress_rate(double y, double unit) { return std::min(y / unit, std::numeric_limits<double>::max()); }

}  // namespace

RateGroups::RateGroups(const TaskGraph& g, Calendar& cal, const TimePs& now, bool share, bool every_load)
    : g_(g), cal_(cal), now_(now), share_(share), var_of_(g.tasks.size(), -1) {
  for (const Resource& r : g.resources) solver_.add_constraint(r.capacity);
  solver_.list_edges(every_load);
}

void RateGroups::start(TaskId t) {
  join(t, 1.0, share_ && policy_.use());
}

// t, with `progress` of its own left, joins the group of its key (when `share`) or starts one.
void RateGroups::join(TaskId t, double progress, bool share) {
  const Task& task = g_.tasks[t];
  const double unit = natural_unit(task);
  const double bound = bound_of(g_.rate_cap(t), unit);
  ShareMap::iterator key = shares_.end();
  ShareKey k;
  if (share && key_of(task, unit, bound, k)) {
    bool added = false;
    std::tie(key, added) = shares_.try_emplace(std::move(k), -1);
    if (!added) {
      policy_.note_gain(1);
      add_member(key->second, t, unit, progress);
      return;
    }
  }
  start_group(t, unit, bound, progress, key);
}

// The key of an activity, or false when it goes alone. The constraints that may fix it: those of
// its own that saturated in the last solve at no more than twice the lowest level among them.
// Which of those fixes it moves with the loads, so a group keyed by all of them stays whole; one
// that saturated far above the others (a host link others filled, beside a flow held at its
// uplink) rarely takes over, and keying by it would split groups for nothing (a group it does
// fix is re-sorted). It goes alone when none is saturated (nothing tells what will fix it: the
// flows of a ring step, each starting on a link of its own, would otherwise all share a rate
// first and be re-sorted apart), or when no other activity uses one now: no group can have its
// key (the flow of a ring step on the link its predecessor just left), and keying it would cost
// a lookup and a removal for each of millions of such flows.
bool RateGroups::key_of(const Task& task, double unit, double bound, ShareKey& key) const {
  double lowest = kInfRate;
  bool used = false;
  for (const Use& u : task.uses) {
    if (u.amount > 0 && solver_.saturated(u.resource)) {
      lowest = std::min(lowest, solver_.level(u.resource));
      used = used || solver_.variable_count(u.resource) > 0;
    }
  }
  if (!used) return false;
  key = ShareKey{{}, bound, (task.kind == TaskKind::Transfer || task.kind == TaskKind::Dha) && unit == task.bytes};
  for (const Use& u : task.uses) {
    if (u.amount > 0 && solver_.saturated(u.resource) && solver_.level(u.resource) <= 2 * lowest) key.uses.emplace_back(u.resource, u.amount / unit);
  }
  std::stable_sort(key.uses.begin(), key.uses.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // A resource used twice is one coefficient, summed in the order of the uses.
  std::size_t n = 0;
  for (std::size_t i = 0; i < key.uses.size(); ++i) {
    if (n > 0 && key.uses[n - 1].first == key.uses[i].first) {
      key.uses[n - 1].second += key.uses[i].second;
    } else {
      key.uses[n++] = key.uses[i];
    }
  }
  key.uses.resize(n);
  return true;
}

// t alone in a new group (keyed when `key` is a key of shares_).
void RateGroups::start_group(TaskId t, double unit, double bound, double progress,
                             ShareMap::iterator key) {
  const VariableId v = solver_.add_variable(bound);
  expand_uses(v, t, unit);
  if (static_cast<std::size_t>(v) >= groups_.size()) groups_.resize(v + 1);
  Group& grp = groups_[v];
  grp.remaining = progress;
  grp.rate = 0;
  grp.unit = unit;
  grp.bound = bound;
  grp.since = now_;
  grp.end = kTimeNever;
  grp.event = -1;
  grp.members.assign(1, Member{kDoneTolerance, t});
  grp.keyed = key != shares_.end();
  grp.key = key;
  if (grp.keyed) key->second = v;
  var_of_[t] = v;
}

// t joins group v: the variable takes its coefficients, and its key is the R at which its
// progress left falls under kDoneTolerance.
void RateGroups::add_member(VariableId v, TaskId t, double unit, double progress) {
  expand_uses(v, t, unit);
  Group& grp = groups_[v];
  grp.members.push_back(Member{remaining_at(grp) - (progress - kDoneTolerance) * (unit / grp.unit), t});
  std::push_heap(grp.members.begin(), grp.members.end());
  var_of_[t] = v;
  mark_dirty(v);
}

// Group v's members changed: its event is placed again once the instant's solves are over.
void RateGroups::mark_dirty(VariableId v) {
  if (groups_[v].dirty) return;
  groups_[v].dirty = true;
  dirty_groups_.push_back(v);
}

// The solver has no way to take coefficients back: a group that lost members has its variable
// reset, and it takes the coefficients of those left.
void RateGroups::rebuild(VariableId v) {
  solver_.reset_variable(v);
  for (const Member& m : groups_[v].members) expand_uses(v, m.task, natural_unit(g_.tasks[m.task]));
}

// v takes t's coefficients: each use's amount over t's unit N (a zero amount adds nothing).
void RateGroups::expand_uses(VariableId v, TaskId t, double unit) {
  for (const Use& u : g_.tasks[t].uses) solver_.expand(v, u.resource, u.amount / unit);
}

void RateGroups::end(TaskId t) {
  const VariableId v = var_of_[t];
  Group& grp = groups_[v];
  PLACESIM_ASSERT(grp.members.front().task == t, "a task ended before its group's next to end");
  std::pop_heap(grp.members.begin(), grp.members.end());
  grp.members.pop_back();
  grp.event = -1;
  grp.end = kTimeNever;
  var_of_[t] = -1;
  if (grp.members.empty()) {
    solver_.remove_variable(v);
    if (grp.keyed) shares_.erase(grp.key);
    grp.keyed = false;
    grp.dirty = false;
    return;
  }
  grp.remaining = remaining_at(grp);
  grp.since = now_;
  rebuild(v);
  place_event(grp, 0);
  mark_dirty(v);
}

void RateGroups::solve() {
  solver_.solve();
  const std::vector<VariableId>& solved = solver_.solved_variables();
  // The completion events ahead are asked for before they are moved (Calendar::prefetch): each
  // is a cache miss when thousands of groups change rate at once. A new group has no event
  // yet (-1): task 0's is asked for instead, harmlessly.
  constexpr std::size_t ahead = kPrefetchAhead;
  auto event_of = [&](std::size_t at) { return static_cast<std::uint32_t>(std::max<TaskId>(groups_[solved[at]].event, 0)); };
  for (std::size_t k = 0; k < solved.size(); ++k) {
    if (k + 2 * ahead < solved.size()) cal_.prefetch_index(event_of(k + 2 * ahead));
    if (k + ahead < solved.size()) cal_.prefetch(event_of(k + ahead));
    Group& grp = groups_[solved[k]];
    const double x = progress_rate(solver_.rate(solved[k]), grp.unit);
    if (x != grp.rate) {
      reschedule(grp, x);
      grp.dirty = false;
    }
  }
}

// Only groups of several are re-sorted, and only a keyed group takes members: their members
// join groups by their keys now (alone, from the last round on).
bool RateGroups::resort(int round) {
  collect_resorted();
  moving_.clear();
  for (const VariableId v : resort_) take_apart(v);
  for (const auto& [t, progress] : moving_) join(t, progress, round + 1 < kShareRounds && policy_.on());
  return !resort_.empty();
}

// The groups of several the solve fixed by a saturated constraint outside their key, into
// resort_, their keys given up.
void RateGroups::collect_resorted() {
  resort_.clear();
  // Only keyed groups are re-sorted: with none (sharing off long enough for its groups to end)
  // the scan of every solved constraint's variables finds nothing.
  if (shares_.empty()) return;
  for (ConstraintId c : solver_.solved_constraints()) {
    if (!solver_.saturated(c)) continue;
    for (std::size_t k = 0; k < solver_.variable_count(c); ++k) {
      const VariableId v = solver_.variable(c, k);
      Group& grp = groups_[v];
      if (grp.members.size() < 2 || !grp.keyed || solver_.fixed_by(v) != c || grp.key->first.holds(c)) continue;
      shares_.erase(grp.key);
      grp.keyed = false;  // also marks it listed
      resort_.push_back(v);
      policy_.note_cost(grp.members.size());
    }
  }
}

// Group v's members, with their progress left, into moving_; the group and its event gone.
void RateGroups::take_apart(VariableId v) {
  Group& grp = groups_[v];
  const double r = remaining_at(grp);
  for (const Member& m : grp.members) {
    const double unit = natural_unit(g_.tasks[m.task]);
    moving_.emplace_back(m.task, (r - m.key) * (grp.unit / unit) + kDoneTolerance);
  }
  if (grp.end != kTimeNever) cal_.erase(static_cast<std::uint32_t>(grp.event));
  grp.end = kTimeNever;
  grp.event = -1;
  grp.members.clear();
  grp.dirty = false;
  solver_.remove_variable(v);
}

void RateGroups::place_changed() {
  for (const VariableId v : dirty_groups_) {
    Group& grp = groups_[v];
    if (!grp.dirty) continue;
    grp.dirty = false;
    place_event(grp, 1);
  }
  dirty_groups_.clear();
}

// Advances the group's clock to now at its old rate, then schedules its next member's
// completion at the new one (place_event).
inline void RateGroups::reschedule(Group& grp, double rate) {
  PLACESIM_ASSERT(rate >= 0 && std::isfinite(rate), "an activity with resources got no finite rate");
  grp.remaining -= grp.rate * to_seconds(now_ - grp.since);
  grp.since = now_;
  grp.rate = rate;
  place_event(grp, 1);
}

// Schedules the completion of the group's next member to end: the instant R falls to its key,
// rounded up to the next picosecond, and at least `at_least` picoseconds away (1 after a rate
// change: it was not done at this instant; 0 once a member ended, as the next may end with it).
// An instant past the largest representable time gets no event: a later re-solve may speed the
// group up (a Dha held back by a kernel on its device); if none does, the executor reports it. An
// unchanged instant of the same member keeps the pending event, so the task keeps its place
// among that instant's events.
void RateGroups::place_event(Group& grp, TimePs at_least) {
  const Member& next = grp.members.front();
  const TimePs dt = std::max<TimePs>(at_least, ceil_ps(std::max(0.0, remaining_at(grp) - next.key) / grp.rate));
  const TimePs end = add_ps(now_, dt);
  if (next.task != grp.event) {
    if (grp.end != kTimeNever) cal_.erase(static_cast<std::uint32_t>(grp.event));
    grp.event = next.task;
    grp.end = kTimeNever;
  }
  if (end == grp.end) return;
  const auto id = static_cast<std::uint32_t>(next.task);
  if (grp.end != kTimeNever && end != kTimeNever) {
    cal_.move(end, id);
  } else if (grp.end != kTimeNever) {
    cal_.erase(id);
  } else {
    cal_.push(end, id);
  }
  grp.end = end;
}

}  // namespace placesim::engine
