// The simulator's event loop (DESIGN.md, "How a TaskGraph executes").
//
// A task moves through: waiting (deps, queue predecessor) -> start -> latency -> [FIFO wait on
// its exclusive resources] -> activity -> end. An activity's progress runs from 0 to 1 at rate
// x, consuming a_r * x of each resource r it uses.
//
// Sharing (DESIGN.md, "Sharing") is equal-weight max-min over each activity's *natural rate*
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
// Each instant: pop every event at that time in (time, insertion) order, and after each one
// start whatever became ready (cascading through tasks that end at once); then re-solve once
// and reschedule only the activities whose rate changed. Remaining work is updated lazily (only
// when the rate changes). A task has at most one pending event, its id the task's: the end of its
// latency, then its completion, which a rate change moves (keeping it, and its place among
// events of that instant, when the instant is unchanged).
#include "sim/engine/executor.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <string>

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

// x = y / N. A tiny N (a transfer of 1e-300 bytes, a kernel of 1e-310 s) can take it past the
// largest double: any x above 1e12 per second ends within the picosecond, so the largest double
// stands for it exactly. A huge N can take it to 0: the activity then never ends in
// representable time, which run() reports.
double progress_rate(double y, double unit) { return std::min(y / unit, std::numeric_limits<double>::max()); }

// An activity's state, kept per solver variable (ids are reused as activities end), so the
// memory is bounded by the activities in flight, not by the tasks.
struct Activity {
  double remaining = 1;  // progress left, as of `since`
  double rate = 0;       // progress per second
  double unit = 1;       // N, the natural unit of work: the solver's variable is N * rate
  TimePs since = 0;
  TimePs end = kTimeNever;  // instant of its valid completion event
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
  void reschedule(TaskId t, Activity& a, double rate);
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
  std::vector<VariableId> var_of_;          // per task: its solver variable while active, else -1
  std::vector<Activity> act_;               // per solver variable
  std::vector<std::int32_t> waiting_;       // unfinished deps + unfinished queue predecessor
  std::vector<std::int32_t> succ_start_;    // dependents, compressed rows (with queue successor)
  std::vector<TaskId> succ_;
  std::vector<std::int32_t> exclusive_start_;  // exclusive resources per task, compressed rows
  std::vector<ResourceId> exclusive_;
  std::vector<TaskId> holder_;                      // per resource, -1 when free
  std::vector<std::deque<TaskId>> fifo_;            // per resource, tasks waiting for it
  std::vector<TaskId> task_of_var_;
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
  const double unit = natural_unit(task);
  // A cap so low that it underflows in N keeps the smallest bound: the activity then cannot end
  // in representable time, which run() reports.
  const VariableId v = solver_.add_variable(std::max(task.rate_cap * unit, std::numeric_limits<double>::denorm_min()));
  for (const Use& u : task.uses) solver_.expand(v, u.resource, u.amount / unit);
  if (static_cast<std::size_t>(v) >= task_of_var_.size()) {
    task_of_var_.resize(v + 1, -1);
    act_.resize(v + 1);
  }
  task_of_var_[v] = t;
  var_of_[t] = v;
  act_[v] = Activity{1.0, 0.0, unit, now_, kTimeNever};
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
    solver_.remove_variable(var_of_[t]);
    var_of_[t] = -1;
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

// Advances the activity to now at its old rate, then schedules its completion at the new one:
// the instant its remaining progress falls under kDoneTolerance, rounded up to the next
// picosecond, and at least one picosecond away (it was not done at this instant). An instant
// past the largest representable time gets no event: a later re-solve may speed the activity
// up (a Dha held back by a kernel on its device); if none does, run() reports it. An unchanged
// instant keeps the pending event, so the task keeps its place among that instant's events.
void Run::reschedule(TaskId t, Activity& a, double rate) {
  PLACESIM_ASSERT(rate >= 0 && std::isfinite(rate), "an activity with resources got no finite rate");
  a.remaining -= a.rate * to_seconds(now_ - a.since);
  a.since = now_;
  a.rate = rate;
  const TimePs dt = std::max<TimePs>(1, ceil_ps(std::max(0.0, a.remaining - kDoneTolerance) / rate));
  const TimePs end = add_ps(now_, dt);
  if (end == a.end) return;
  const auto id = static_cast<std::uint32_t>(t);
  if (a.end != kTimeNever && end != kTimeNever) {
    cal_.move(end, id);
  } else if (a.end != kTimeNever) {
    cal_.erase(id);
  } else {
    cal_.push(end, id);
  }
  a.end = end;
}

// One re-solve per instant; only activities whose rate changed are touched.
void Run::end_instant() {
  solver_.solve();
  const std::vector<VariableId>& solved = solver_.solved_variables();
  for (std::size_t k = 0; k < solved.size(); ++k) {
    // The completion events ahead are asked for before they are moved (Calendar::prefetch): each
    // is a cache miss when thousands of flows change rate at once.
    constexpr std::size_t ahead = kPrefetchAhead;
    if (k + 2 * ahead < solved.size()) cal_.prefetch_index(static_cast<std::uint32_t>(task_of_var_[solved[k + 2 * ahead]]));
    if (k + ahead < solved.size()) cal_.prefetch(static_cast<std::uint32_t>(task_of_var_[solved[k + ahead]]));
    const VariableId v = solved[k];
    Activity& a = act_[v];
    const double x = progress_rate(solver_.rate(v), a.unit);
    if (x != a.rate) reschedule(task_of_var_[v], a, x);
  }
  if (opts_.record_usage) {
    for (ConstraintId c : solver_.solved_constraints()) {
      std::vector<Sample>& s = trace_.usage[c];
      const double load = solver_.load(c);
      if (s.empty() ? load != 0 : s.back().value != load) s.push_back(Sample{now_, load});
    }
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
