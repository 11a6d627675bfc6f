// The simulator's event loop (docs/execution.md).
//
// A task moves through: waiting (deps, queue predecessor) -> start -> latency -> [FIFO wait on
// its exclusive resources] -> activity -> end. An activity's progress runs from 0 to 1 at rate
// x, consuming a_r * x of each resource r it uses.
//
// Sharing (docs/execution.md, "Sharing") is equal-weight max-min over each activity's *natural rate*
// y = N x, where N is the activity's natural unit of work:
//   * a task that moves bytes (Transfer or Dha with bytes > 0): N = its bytes, so y is its
//     byte rate; it consumes y on every link direction of its route, its copy engine and its
//     NUMA memory bandwidth (coefficient a_r / N = 1), and a Dha's compute follows in
//     proportion (coefficient d / bytes on its device);
//   * any other task (a Compute, a byte-less Transfer or Dha): N = the largest amount on its
//     resources, so a kernel of duration d on a device of capacity 1 (or on several cores, the
//     same d on each) is shared by the fraction of the device it holds (coefficient 1).
// The solver's element coefficients are a_r / N and its bound is rate_cap * N (a cap still
// bounds progress); x = y / N. For transfers alone this is exactly the classic network max-min
// of SimGrid's LMM with pure max-min settings, on any routes and capacities: a flow held back by
// a slow link leaves the rest of a fast link to the others, and a 1 KB and a 1 GB flow on one
// link get equal bytes/s. Units meet only where one activity spans both kinds of resource (a
// Dha): the common level is bytes/s for it and a device fraction for a kernel beside it on its
// device, so that kernel fills the device at a level of about 1 while the Dha is held to about
// 1 B/s until the kernel ends (the contract's literal reading; no unit is privileged).
//
// Shared rates. With thousands of flows in flight through a few saturated uplinks, most rates
// change at every event, yet flows held by the same uplinks always get one rate. So flows, and
// any activities, share: once `SimOptions::share_from` activities are in flight, a starting
// activity with a constraint saturated in the last solve joins the group of its key, if any
// (its saturated constraints within twice the lowest level among them, with coefficients; its
// bound; whether its unit is bytes), else starts one. A group is one solver variable whose
// coefficients are its members' summed (on a link only some members cross, those members'),
// so the solver sees the members' load at the shared rate, exactly. Its allocation is the one
// of the members solved apart as long as each group is fixed by its bound or by a constraint in
// its key (every member uses it alike): progressive filling member by member then takes the
// same steps. A solve that fixes a group of several by another constraint (a host link its
// members' growing rate filled) re-sorts that group's members by their keys now and solves
// again (after a few rounds the members re-sorted go alone, which is always exact).
// A group keeps one progress clock: its first member's progress left, R, falling at that
// member's rate x; a member ends when R reaches its key (the R at which its own progress left
// falls under kDoneTolerance, in the first member's units), so a rate change moves one
// completion event, the next member's to end. A group of one is an activity's own progress,
// with the same arithmetic as an activity alone; in a larger group a member's instants agree
// with the ones apart within rounding (a picosecond), not bit for bit.
//
// Each instant: pop every event at that time in (time, insertion) order, and after each one
// start whatever became ready (cascading through tasks that end at once); then re-solve (again
// after a re-sort) and reschedule only the groups whose rate changed or whose members did.
// Remaining work is updated lazily (only when the rate changes). A task has at most one pending
// event, its id the task's: the end of its latency, then its completion, which a rate change
// moves (keeping it, and its place among events of that instant, when the instant is unchanged).
#include "sim/engine/executor.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/core/prefetch.hpp"
#include "sim/engine/calendar.hpp"
#include "sim/engine/max_min.hpp"
#include "sim/engine/memory_ledger.hpp"

namespace placesim::engine {

namespace {

// Progress (a task's whole work is 1) still undone that counts as done: absorbs the rounding of
// rate and time arithmetic (a few ulps), far below a picosecond for any task under ~100 s.
constexpr double kDoneTolerance = 1e-14;
constexpr double kInfRate = std::numeric_limits<double>::infinity();

enum class State : std::uint8_t { Waiting, Latency, Queued, Active, Done };

// N, the unit an activity is shared in (the header comment): its bytes when it moves bytes,
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
// in representable time, which run() reports.
double bound_of(const Task& task, double unit) {
  return std::max(task.rate_cap * unit, std::numeric_limits<double>::denorm_min());
}

// x = y / N. A tiny N (a transfer of 1e-300 bytes, a kernel of 1e-310 s) can take it past the
// largest double: any x above 1e12 per second ends within the picosecond, so the largest double
// stands for it exactly. A huge N can take it to 0: the activity then never ends in
// representable time, which run() reports.
double progress_rate(double y, double unit) { return std::min(y / unit, std::numeric_limits<double>::max()); }

// A member of a group: it ends when the group's R falls to `key`.
struct Member {
  double key;
  TaskId task;
  // The next to end on top of the heap: the largest key (R falls), then the lowest task id.
  bool operator<(const Member& o) const { return key != o.key ? key < o.key : task > o.task; }
};

// What shares a rate (the header comment, "Shared rates"): the constraints that may fix it,
// with their coefficients, in constraint order; its bound; and whether its unit is bytes. Units
// of one kind only share a clock: a kernel's R measured in a flow's bytes would keep a few
// digits of it, while bytes of flows a million times apart in size keep ten.
struct ShareKey {
  std::vector<std::pair<ResourceId, double>> uses;
  double bound;
  bool bytes;
  bool operator<(const ShareKey& o) const { return std::tie(uses, bound, bytes) < std::tie(o.uses, o.bound, o.bytes); }
  bool holds(ResourceId c) const {
    const auto at = std::lower_bound(uses.begin(), uses.end(), c, [](const auto& u, ResourceId id) { return u.first < id; });
    return at != uses.end() && at->first == c;
  }
};
using ShareMap = std::map<ShareKey, VariableId>;

// A group's state, kept per solver variable (ids are reused as groups end), so the memory is
// bounded by the activities in flight, not by the tasks.
struct Group {
  double remaining = 1;  // R: the first member's progress left, as of `since`
  double rate = 0;       // x: the first member's progress per second
  double unit = 1;       // the first member's N: the solver's variable is N * x
  double bound = 0;      // the solver variable's bound
  TimePs since = 0;
  TimePs end = kTimeNever;  // instant of the valid completion event, `event`'s
  TaskId event = -1;
  std::vector<Member> members;  // a max-heap: the next to end on top
  ShareMap::iterator key;       // when `keyed`: the group others with its key join
  bool keyed = false;
  bool dirty = false;  // its members changed since the last solve: its event is placed again
};

class Run {
 public:
  Run(const TaskGraph& g, const SimOptions& opts);
  Trace run();

 private:
  void build_links();
  void drain_ready();
  void start(TaskId t);
  void arrive(TaskId t);
  void try_grant(TaskId t);
  void become_activity(TaskId t);
  void finish(TaskId t);
  void handle(Calendar::Event e);
  void end_instant();
  // Shared rates (header comment): t, with `progress` of its own left, joins the group of its
  // key (when `share`) or starts one; leaves its group as it ends; re-sorts groups a solve left
  // inconsistent.
  void join(TaskId t, double progress, bool share);
  void leave(TaskId t);
  void add_member(VariableId v, TaskId t, double unit, double progress);
  void rebuild(VariableId v);
  void expand_uses(VariableId v, TaskId t, double unit);
  bool resort_groups(bool share);
  double remaining_at(const Group& grp) const { return grp.remaining - grp.rate * to_seconds(now_ - grp.since); }
  void reschedule(Group& grp, double rate);
  void place_event(Group& grp, TimePs at_least);
  // Per task, its exclusive resources (build_links), each once.
  const ResourceId* exclusive_begin(TaskId t) const { return exclusive_.data() + exclusive_start_[t]; }
  const ResourceId* exclusive_end(TaskId t) const { return exclusive_.data() + exclusive_start_[t + 1]; }
  [[noreturn]] void report_unfinished() const;

  const TaskGraph& g_;
  const SimOptions& opts_;
  TimePs now_ = 0;
  Calendar cal_;
  MaxMinSystem solver_;
  MemoryLedger memory_;
  Trace trace_;

  std::vector<State> state_;
  std::vector<VariableId> var_of_;          // per task: its group's solver variable while active, else -1
  std::vector<Group> groups_;               // per solver variable
  ShareMap shares_;
  std::size_t active_ = 0;                  // activities in flight
  std::vector<VariableId> dirty_groups_;
  std::vector<VariableId> resort_;                       // groups to re-sort
  std::vector<std::pair<TaskId, double>> moving_;        // their members, with progress left
  std::vector<std::uint64_t> usage_seen_;                // == usage_serial_: in usage_cons_
  std::uint64_t usage_serial_ = 0;
  std::vector<ConstraintId> usage_cons_;                 // solved in this instant (record_usage)
  std::vector<std::int32_t> waiting_;       // unfinished deps + unfinished queue predecessor
  std::vector<std::int32_t> succ_start_;    // dependents, compressed rows (with queue successor)
  std::vector<TaskId> succ_;
  std::vector<std::int32_t> exclusive_start_;  // exclusive resources per task, compressed rows
  std::vector<ResourceId> exclusive_;
  std::vector<TaskId> holder_;                      // per resource, -1 when free
  std::vector<std::deque<TaskId>> fifo_;            // per resource, tasks waiting for it
  std::vector<TaskId> ready_;
  std::size_t ready_head_ = 0;
  std::size_t done_ = 0;
  // Tasks finished at which progress is told next (SimOptions::progress); none when not asked.
  std::size_t next_progress_ = std::numeric_limits<std::size_t>::max();
};

Run::Run(const TaskGraph& g, const SimOptions& opts)
    : g_(g), opts_(opts), memory_(g) {
  if (opts.progress && opts.progress_every > 0) next_progress_ = opts.progress_every;
  const std::size_t n = g.tasks.size();
  cal_.reserve_ids(n);
  state_.assign(n, State::Waiting);
  var_of_.assign(n, -1);
  trace_.tasks.assign(n, TaskRecord{});
  trace_.consumed.assign(g.resources.size(), 0.0);
  trace_.usage.assign(g.resources.size(), {});
  holder_.assign(g.resources.size(), -1);
  fifo_.resize(g.resources.size());
  if (opts.record_usage) usage_seen_.assign(g.resources.size(), 0);
  for (const Resource& r : g.resources) solver_.add_constraint(r.capacity);
  build_links();
}

// Successor lists and waiting counts from deps and queue orders; exclusive uses per task.
void Run::build_links() {
  const std::size_t n = g_.tasks.size();
  waiting_.assign(n, 0);
  const std::vector<TaskId> queue_pred = g_.queue_predecessors();
  succ_start_.assign(n + 1, 0);
  for (std::size_t t = 0; t < n; ++t) {
    if (queue_pred[t] >= 0) ++succ_start_[queue_pred[t] + 1];
    for (TaskId d : g_.tasks[t].deps) ++succ_start_[d + 1];
    waiting_[t] = static_cast<std::int32_t>(g_.tasks[t].deps.size()) + (queue_pred[t] >= 0 ? 1 : 0);
  }
  for (std::size_t t = 0; t < n; ++t) succ_start_[t + 1] += succ_start_[t];
  succ_.resize(succ_start_[n]);
  std::vector<std::int32_t> fill(succ_start_.begin(), succ_start_.end() - 1);
  for (std::size_t t = 0; t < n; ++t) {
    for (TaskId d : g_.tasks[t].deps) succ_[fill[d]++] = static_cast<TaskId>(t);
    if (queue_pred[t] >= 0) succ_[fill[queue_pred[t]]++] = static_cast<TaskId>(t);
  }
  exclusive_start_.assign(n + 1, 0);
  for (std::size_t t = 0; t < n; ++t) {
    const auto first = exclusive_.size();
    for (const Use& u : g_.tasks[t].uses) {
      if (u.amount > 0 && g_.resources[u.resource].exclusive &&
          std::find(exclusive_.begin() + first, exclusive_.end(), u.resource) == exclusive_.end()) {
        exclusive_.push_back(u.resource);
      }
    }
    exclusive_start_[t + 1] = static_cast<std::int32_t>(exclusive_.size());
  }
}

void Run::drain_ready() {
  while (ready_head_ < ready_.size()) start(ready_[ready_head_++]);
  ready_.clear();
  ready_head_ = 0;
}

void Run::start(TaskId t) {
  state_[t] = State::Latency;
  trace_.tasks[t].start = now_;
  memory_.task_started(t);
  const TimePs latency = g_.tasks[t].latency;
  if (latency > 0) {
    cal_.push(now_ + latency, static_cast<std::uint32_t>(t));
  } else {
    arrive(t);
  }
}

// Latency over: wait (FIFO, in order of arrival) for the exclusive resources, if any.
void Run::arrive(TaskId t) {
  if (exclusive_begin(t) == exclusive_end(t)) {
    become_activity(t);
    return;
  }
  state_[t] = State::Queued;
  for (const ResourceId* r = exclusive_begin(t); r != exclusive_end(t); ++r) fifo_[*r].push_back(t);
  try_grant(t);
}

// Every FIFO is in one global arrival order, so the oldest waiting task heads all of its
// FIFOs as soon as its resources are free: no circular wait.
void Run::try_grant(TaskId t) {
  for (const ResourceId* r = exclusive_begin(t); r != exclusive_end(t); ++r) {
    if (holder_[*r] >= 0 || fifo_[*r].front() != t) return;
  }
  for (const ResourceId* r = exclusive_begin(t); r != exclusive_end(t); ++r) {
    fifo_[*r].pop_front();
    holder_[*r] = t;
  }
  become_activity(t);
}

void Run::become_activity(TaskId t) {
  trace_.tasks[t].active = now_;
  const Task& task = g_.tasks[t];
  const bool uses_any = std::any_of(task.uses.begin(), task.uses.end(), [](const Use& u) { return u.amount > 0; });
  if (!uses_any) {
    finish(t);  // an activity that uses no resource ends at once
    return;
  }
  state_[t] = State::Active;
  ++active_;
  join(t, 1.0, active_ > opts_.share_from);
}

void Run::join(TaskId t, double progress, bool share) {
  const Task& task = g_.tasks[t];
  const double unit = natural_unit(task);
  const double bound = bound_of(task, unit);
  ShareMap::iterator key = shares_.end();
  // The constraints that may fix it: those of its own that saturated in the last solve at no
  // more than twice the lowest level among them. Which of those fixes it moves with the loads,
  // so a group keyed by all of them stays whole; one that saturated far above the others (a host
  // link others filled, beside a flow held at its uplink) rarely takes over, and keying by it
  // would split groups for nothing (a group it does fix is re-sorted).
  // It goes alone when none is saturated (nothing tells what will fix it: the flows of a ring
  // step, each starting on a link of its own, would otherwise all share a rate first and be
  // re-sorted apart), or when no other activity uses one now: no group can have its key (the
  // flow of a ring step on the link its predecessor just left), and keying it would cost a
  // lookup and a removal for each of millions of such flows.
  double lowest = kInfRate;
  bool used = false;
  if (share) {
    for (const Use& u : task.uses) {
      if (u.amount > 0 && solver_.saturated(u.resource)) {
        lowest = std::min(lowest, solver_.level(u.resource));
        used = used || solver_.variable_count(u.resource) > 0;
      }
    }
  }
  if (used) {
    ShareKey k{{}, bound, (task.kind == TaskKind::Transfer || task.kind == TaskKind::Dha) && unit == task.bytes};
    for (const Use& u : task.uses) {
      if (u.amount > 0 && solver_.saturated(u.resource) && solver_.level(u.resource) <= 2 * lowest) k.uses.emplace_back(u.resource, u.amount / unit);
    }
    std::stable_sort(k.uses.begin(), k.uses.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // A resource used twice is one coefficient, summed in the order of the uses.
    std::size_t n = 0;
    for (std::size_t i = 0; i < k.uses.size(); ++i) {
      if (n > 0 && k.uses[n - 1].first == k.uses[i].first) {
        k.uses[n - 1].second += k.uses[i].second;
      } else {
        k.uses[n++] = k.uses[i];
      }
    }
    k.uses.resize(n);
    bool added = false;
    std::tie(key, added) = shares_.try_emplace(std::move(k), -1);
    if (!added) {
      add_member(key->second, t, unit, progress);
      return;
    }
  }
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
void Run::add_member(VariableId v, TaskId t, double unit, double progress) {
  expand_uses(v, t, unit);
  Group& grp = groups_[v];
  grp.members.push_back(Member{remaining_at(grp) - (progress - kDoneTolerance) * (unit / grp.unit), t});
  std::push_heap(grp.members.begin(), grp.members.end());
  var_of_[t] = v;
  if (!grp.dirty) {
    grp.dirty = true;
    dirty_groups_.push_back(v);
  }
}

// The solver has no way to take coefficients back: a group that lost members is its variable
// removed and added again, under the same id (the last removed is the first reused), with the
// coefficients of those left.
void Run::rebuild(VariableId v) {
  solver_.remove_variable(v);
  const VariableId w = solver_.add_variable(groups_[v].bound);
  PLACESIM_ASSERT(w == v, "a group's variable came back under another id");
  for (const Member& m : groups_[v].members) expand_uses(v, m.task, natural_unit(g_.tasks[m.task]));
}

// v takes t's coefficients: each use's amount over t's unit N (a zero amount adds nothing).
void Run::expand_uses(VariableId v, TaskId t, double unit) {
  for (const Use& u : g_.tasks[t].uses) solver_.expand(v, u.resource, u.amount / unit);
}

// t ends: it is its group's next to end (its event was the group's). The next one may end at
// this same instant.
void Run::leave(TaskId t) {
  const VariableId v = var_of_[t];
  Group& grp = groups_[v];
  PLACESIM_ASSERT(grp.members.front().task == t, "a task ended before its group's next to end");
  std::pop_heap(grp.members.begin(), grp.members.end());
  grp.members.pop_back();
  grp.event = -1;
  grp.end = kTimeNever;
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
  if (!grp.dirty) {
    grp.dirty = true;
    dirty_groups_.push_back(v);
  }
}

void Run::finish(TaskId t) {
  state_[t] = State::Done;
  ++done_;
  if (done_ == next_progress_) {
    opts_.progress(done_, g_.tasks.size());
    next_progress_ += opts_.progress_every;
  }
  trace_.tasks[t].end = now_;
  trace_.makespan = std::max(trace_.makespan, now_);
  const Task& task = g_.tasks[t];
  for (const Use& u : task.uses) trace_.consumed[u.resource] += u.amount;
  if (var_of_[t] >= 0) {
    leave(t);
    var_of_[t] = -1;
    --active_;
  }
  memory_.task_ended(t);
  for (const ResourceId* r = exclusive_begin(t); r != exclusive_end(t); ++r) holder_[*r] = -1;
  for (const ResourceId* r = exclusive_begin(t); r != exclusive_end(t); ++r) {
    if (holder_[*r] < 0 && !fifo_[*r].empty()) try_grant(fifo_[*r].front());
  }
  for (std::int32_t k = succ_start_[t]; k < succ_start_[t + 1]; ++k) {
    if (--waiting_[succ_[k]] == 0) ready_.push_back(succ_[k]);
  }
}

void Run::handle(Calendar::Event e) {
  const auto t = static_cast<TaskId>(e.id);
  if (state_[t] == State::Latency) {
    arrive(t);
  } else {
    finish(t);
  }
}

// Advances the group's clock to now at its old rate, then schedules its next member's
// completion at the new one (place_event).
void Run::reschedule(Group& grp, double rate) {
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
// group up (a Dha held back by a kernel on its device); if none does, run() reports it. An
// unchanged instant of the same member keeps the pending event, so the task keeps its place
// among that instant's events.
void Run::place_event(Group& grp, TimePs at_least) {
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

// Groups of several the solve fixed by a constraint outside their key (header comment, "Shared
// rates"): their members join groups by their keys now (alone, when not `share`). Whether any
// was re-sorted.
bool Run::resort_groups(bool share) {
  resort_.clear();
  for (ConstraintId c : solver_.solved_constraints()) {
    if (!solver_.saturated(c)) continue;
    for (std::size_t k = 0; k < solver_.variable_count(c); ++k) {
      const VariableId v = solver_.variable(c, k);
      Group& grp = groups_[v];
      if (grp.members.size() < 2 || !grp.keyed || solver_.fixed_by(v) != c || grp.key->first.holds(c)) continue;
      shares_.erase(grp.key);
      grp.keyed = false;  // also marks it listed
      resort_.push_back(v);
    }
  }
  // Only groups of several are re-sorted, and only a keyed group takes members.
  moving_.clear();
  for (const VariableId v : resort_) {
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
  for (const auto& [t, progress] : moving_) join(t, progress, share);
  return !resort_.empty();
}

// Re-solves (again after a re-sort) and reschedules the groups whose rate changed, then those
// whose members changed and whose rate did not.
void Run::end_instant() {
  ++usage_serial_;
  usage_cons_.clear();
  // Re-sorting converges (each round splits groups a solve showed mixed); past a few rounds
  // the members re-sorted go alone, and a group of one is always consistent.
  constexpr int kShareRounds = 4;
  for (int round = 0;; ++round) {
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
    if (opts_.record_usage) {
      for (ConstraintId c : solver_.solved_constraints()) {
        if (usage_seen_[c] == usage_serial_) continue;
        usage_seen_[c] = usage_serial_;
        usage_cons_.push_back(c);
      }
    }
    if (!resort_groups(round + 1 < kShareRounds)) break;
  }
  for (const VariableId v : dirty_groups_) {
    Group& grp = groups_[v];
    if (!grp.dirty) continue;
    grp.dirty = false;
    place_event(grp, 1);
  }
  dirty_groups_.clear();
  for (ConstraintId c : usage_cons_) {
    std::vector<Sample>& s = trace_.usage[c];
    const double load = solver_.load(c);
    if (s.empty() ? load != 0 : s.back().value != load) s.push_back(Sample{now_, load});
  }
  memory_.end_instant(now_);
}

// The run is over with tasks left: an activity too slow to end in representable time, else a
// task that never started.
void Run::report_unfinished() const {
  for (std::size_t i = 0; i < g_.tasks.size(); ++i) {
    if (state_[i] == State::Active) {
      throw TaskError(static_cast<TaskId>(i), "task '" + std::string(g_.name(static_cast<TaskId>(i))) + "' would end beyond the largest representable time");
    }
  }
  const std::vector<TaskId> queue_pred = g_.queue_predecessors();
  for (std::size_t i = 0; i < g_.tasks.size(); ++i) {
    if (state_[i] != State::Waiting) continue;
    std::string blockers;
    for (TaskId d : g_.tasks[i].deps) {
      if (state_[d] != State::Done) blockers += (blockers.empty() ? "" : ", ") + ("dependency '" + std::string(g_.name(d)) + "'");
    }
    const TaskId p = queue_pred[i];
    if (p >= 0 && state_[p] != State::Done) {
      blockers += (blockers.empty() ? "" : ", ") + ("'" + std::string(g_.name(p)) + "' before it in queue '" + g_.queues[g_.tasks[i].queue] + "'");
    }
    throw TaskError(static_cast<TaskId>(i), "the task graph cannot finish: " + std::to_string(g_.tasks.size() - done_) +
                     " task(s) never start; task '" + std::string(g_.name(static_cast<TaskId>(i))) + "' waits for " + blockers +
                     " (a queue order that contradicts the dependencies, or a dependency cycle)");
  }
  PLACESIM_ASSERT(false, "unfinished tasks but none waiting");
  __builtin_unreachable();
}

Trace Run::run() {
  if (opts_.progress) opts_.progress(0, g_.tasks.size());
  for (std::size_t t = 0; t < g_.tasks.size(); ++t) {
    if (waiting_[t] == 0) ready_.push_back(static_cast<TaskId>(t));
  }
  drain_ready();
  end_instant();
  while (!cal_.empty()) {
    now_ = cal_.top_time();
    while (!cal_.empty() && cal_.top_time() == now_) {
      handle(cal_.pop());
      drain_ready();
    }
    end_instant();
  }
  if (done_ != g_.tasks.size()) report_unfinished();
  if (opts_.progress) opts_.progress(done_, g_.tasks.size());
  trace_.busy_s.resize(g_.resources.size());
  for (std::size_t r = 0; r < g_.resources.size(); ++r) trace_.busy_s[r] = trace_.consumed[r] / g_.resources[r].capacity;
  memory_.write(trace_);
  return std::move(trace_);
}

}  // namespace

Trace simulate(const TaskGraph& g, const SimOptions& opts) {
  g.validate();
  return Run(g, opts).run();
}

}  // namespace placesim::engine
