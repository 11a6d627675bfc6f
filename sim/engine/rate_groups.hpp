// The activities in flight as the solver's variables (max_min.hpp), grouped where they share a
// rate, and their completion events on the executor's calendar (executor.cpp): the solver and
// what the executor asks of it, apart from its task states.
//
// Sharing (docs/execution.md, "Sharing") is equal-weight max-min over each activity's *natural
// rate* y = N x, where N is the activity's natural unit of work:
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
// any activities, share: while sharing pays (below, "When sharing pays"), a starting activity with a constraint saturated in the last solve joins the
// group of its key, if any (its saturated constraints within twice the lowest level among them,
// with coefficients; its bound; whether its unit is bytes), else starts one. A group is one solver variable whose
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
// A group that loses a member keeps its variable: the solver resets it (reset_variable) and it
// takes the coefficients of the members left. Remaining work is updated lazily (only when the
// rate changes). A completion event's id is its task's; a rate change moves it (keeping it, and
// its place among events of that instant, when the instant is unchanged).
//
// When sharing pays. A start that joins a group saves the solver a variable for as long as the
// member lives; a member the solve shows held by a constraint outside its group's key is
// re-sorted: taken apart, keyed again, and solved again in another round of the instant. Both
// scale with the activities in flight (a solve's part), so what decides is their ratio: starts
// are keyed while, over a window of them (measured_switch.hpp),
//
//     joins > kResortPerJoin * members re-sorted.
//
// kResortPerJoin is fitted to bench_flows' flows_sharing_on_off, the engine with shared rates
// always on against never, on the two sets where they differ most in opposite directions
// (docs/engine-scale.md, "The cost model"): a re-sorted member costs about what 1.9 joins save.
// Per window of 256 starts the sets sharing loses on (the mixed tree at 10k flows, the uniform
// one at 10k) show joins / re-sorted 0.9-1.3, the ones it wins on (both trees at 30k) 1.8 to
// over 100. Off, no key is built.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/engine/calendar.hpp"
#include "sim/engine/max_min.hpp"
#include "sim/engine/measured_switch.hpp"
#include "sim/engine/task_graph.hpp"

namespace placesim::engine {

class RateGroups {
 public:
  static constexpr double kResortPerJoin = 1.9;  // "When sharing pays"

  // A constraint per resource of g. `now`: the run's clock, read at each call. Activities may
  // share when `share` (SimOptions::share_rates). `every_load`: solver().solved_constraints()
  // lists every constraint whose load changed (SimOptions::record_usage), else only saturated
  // ones are sure to be (all the groups read).
  RateGroups(const TaskGraph& g, Calendar& cal, const TimePs& now, bool share, bool every_load);

  // The resources' loads and what the last solve changed (MaxMinSystem::solved_constraints, as
  // `every_load` says).
  const MaxMinSystem& solver() const { return solver_; }

  // Task t becomes an activity: it joins the group of its key, or starts one. Its completion
  // event is placed once the solver has given it a rate (solve, place_changed).
  void start(TaskId t);
  // Whether t is an activity in flight (started, not ended).
  bool holds(TaskId t) const { return var_of_[t] >= 0; }
  // t, its group's next to end (its completion event was popped), ends; the next may end at
  // this same instant.
  void end(TaskId t);
  // Solves the rates: each group whose rate changed moves its completion event.
  void solve();
  // After solve(): re-sorts the groups the solve fixed by a constraint outside their key
  // ("Shared rates"), whether any: then the solver solves again, and `round` (0 for the first
  // solve of an instant) counts the solves so far.
  bool resort(int round);
  // Once the instant's solves are over: places the events of the groups whose members changed
  // and whose rate did not.
  void place_changed();

 private:
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
    bool operator<(const ShareKey& o) const {
      return std::tie(uses, bound, bytes) < std::tie(o.uses, o.bound, o.bytes);
    }
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

  void join(TaskId t, double progress, bool share);
  bool key_of(const Task& task, double unit, double bound, ShareKey& key) const;
  void start_group(TaskId t, double unit, double bound, double progress, ShareMap::iterator key);
  void add_member(VariableId v, TaskId t, double unit, double progress);
  void mark_dirty(VariableId v);
  void rebuild(VariableId v);
  void expand_uses(VariableId v, TaskId t, double unit);
  void collect_resorted();
  void take_apart(VariableId v);
  double remaining_at(const Group& grp) const {
    return grp.remaining - grp.rate * to_seconds(now_ - grp.since);
  }
  void reschedule(Group& grp, double rate);
  void place_event(Group& grp, TimePs at_least);

  const TaskGraph& g_;
  MaxMinSystem solver_;
  Calendar& cal_;
  const TimePs& now_;
  const bool share_;
  // Whether starts are keyed (the header comment, "When sharing pays").
  MeasuredSwitch policy_{kResortPerJoin};
  std::vector<VariableId> var_of_;  // per task: its group's variable while active, else -1
  std::vector<Group> groups_;       // per solver variable
  ShareMap shares_;
  std::vector<VariableId> dirty_groups_;
  std::vector<VariableId> resort_;                 // groups to re-sort
  std::vector<std::pair<TaskId, double>> moving_;  // their members, with progress left
};

}  // namespace placesim::engine
