// The simulator's event loop (docs/execution.md).
//
// A task moves through: waiting (deps, queue predecessor) -> start -> latency -> [FIFO wait on
// its exclusive resources] -> activity -> end. An activity's progress runs from 0 to 1 at rate
// x, consuming a_r * x of each resource r it uses.
//
// An activity's rate is its share of its resources (docs/execution.md, "Sharing"), solved by
// the max-min solver (max_min.hpp) over the activities in flight, which share rates in groups
// (rate_groups.hpp, "Shared rates").
//
// Each instant: pop every event at that time in (time, insertion) order, and after each one
// start whatever became ready (cascading through tasks that end at once); then re-solve (again
// after a re-sort) and reschedule only the groups whose rate changed or whose members did. A task
// has at most one pending event, its id the task's: the end of its latency, then its completion
// (rate_groups.hpp).
#include "sim/engine/executor.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <string>
#include <utility>

#include "sim/core/error.hpp"
#include "sim/engine/calendar.hpp"
#include "sim/engine/memory_ledger.hpp"
#include "sim/engine/rate_groups.hpp"

namespace placesim::engine {

namespace {

enum class State : std::uint8_t { Waiting, Latency, Queued, Active, Done };

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
  void note_usage();
  // Per task, its exclusive resources (build_links), each once.
  // None when the graph has no exclusive resource: no rows are kept then.
  const ResourceId* exclusive_begin(TaskId t) const {
    return exclusive_start_.empty() ? nullptr : exclusive_.data() + exclusive_start_[t];
  }
  const ResourceId* exclusive_end(TaskId t) const {
    return exclusive_start_.empty() ? nullptr : exclusive_.data() + exclusive_start_[t + 1];
  }
  [[noreturn]] void report_unfinished() const;

  const TaskGraph& g_;
  const SimOptions& opts_;
  TimePs now_ = 0;
  Calendar cal_;
  RateGroups groups_;  // the solver, and the activities in flight as its variables
  MemoryLedger memory_;
  Trace trace_;

  std::vector<State> state_;
  // == usage_serial_: in usage_cons_; the largest value for a resource the sink does not want
  std::vector<std::uint64_t> usage_seen_;
  std::uint64_t usage_serial_ = 0;
  std::vector<double> usage_last_;  // per resource, its last sample's value (0 before the first)
  std::vector<ConstraintId> usage_cons_;                 // solved in this instant (record_usage)
  std::vector<double> usage_loads_;                      // their loads
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
    : g_(g), opts_(opts), groups_(g, cal_, now_, opts.share_rates, opts.record_usage), memory_(g) {
  if (opts.progress && opts.progress_every > 0) next_progress_ = opts.progress_every;
  const std::size_t n = g.tasks.size();
  cal_.reserve_ids(n);
  state_.assign(n, State::Waiting);
  trace_.tasks.assign(n, TaskRecord{});
  trace_.consumed.assign(g.resources.size(), 0.0);
  trace_.usage.assign(g.resources.size(), {});
  holder_.assign(g.resources.size(), -1);
  fifo_.resize(g.resources.size());
  if (opts.record_usage) {
    usage_seen_.assign(g.resources.size(), 0);
    usage_last_.assign(g.resources.size(), 0.0);
    if (opts.usage_sink) {
      opts.usage_sink->begin(g);
      for (std::size_t r = 0; r < g.resources.size(); ++r)
        if (!opts.usage_sink->wants(static_cast<ResourceId>(r))) usage_seen_[r] = std::numeric_limits<std::uint64_t>::max();
    }
  }
  build_links();
}

// Successor lists and waiting counts from deps and queue orders; exclusive uses per task. At
// tens of millions of tasks this is the run's peak of memory: the rows are built in place, and
// each task's queue predecessor found again in each pass (a per-queue last task) rather than
// held per task.
void Run::build_links() {
  const std::size_t n = g_.tasks.size();
  waiting_.assign(n, 0);
  succ_start_.assign(n + 1, 0);
  std::vector<TaskId> last(g_.queues.size(), -1);
  for (std::size_t t = 0; t < n; ++t) {
    const Task& task = g_.tasks[t];
    const TaskId pred = std::exchange(last[task.queue], static_cast<TaskId>(t));
    if (pred >= 0) ++succ_start_[pred + 1];
    for (TaskId d : task.deps) ++succ_start_[d + 1];
    waiting_[t] = static_cast<std::int32_t>(task.deps.size()) + (pred >= 0 ? 1 : 0);
  }
  for (std::size_t t = 0; t < n; ++t) succ_start_[t + 1] += succ_start_[t];
  succ_.resize(succ_start_[n]);
  // succ_start_[d] serves as d's cursor while filling, ending at succ_start_[d + 1]; shifted
  // back by one row after.
  std::fill(last.begin(), last.end(), -1);
  for (std::size_t t = 0; t < n; ++t) {
    const Task& task = g_.tasks[t];
    for (TaskId d : task.deps) succ_[succ_start_[d]++] = static_cast<TaskId>(t);
    const TaskId pred = std::exchange(last[task.queue], static_cast<TaskId>(t));
    if (pred >= 0) succ_[succ_start_[pred]++] = static_cast<TaskId>(t);
  }
  for (std::size_t t = n; t > 0; --t) succ_start_[t] = succ_start_[t - 1];
  succ_start_[0] = 0;
  if (std::none_of(g_.resources.begin(), g_.resources.end(), [](const Resource& r) { return r.exclusive; })) return;
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
  groups_.start(t);
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
  if (groups_.holds(t)) groups_.end(t);
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

// Re-solves (again after a re-sort) and reschedules the groups whose rate changed, then those
// whose members changed and whose rate did not.
void Run::end_instant() {
  ++usage_serial_;
  usage_cons_.clear();
  for (int round = 0;; ++round) {
    groups_.solve();
    if (opts_.record_usage) note_usage();
    if (!groups_.resort(round)) break;
  }
  groups_.place_changed();
  usage_loads_.resize(usage_cons_.size());
  groups_.solver().loads(usage_cons_.data(), usage_cons_.size(), usage_loads_.data());
  for (std::size_t i = 0; i < usage_cons_.size(); ++i) {
    const ConstraintId c = usage_cons_[i];
    const double load = usage_loads_[i];
    if (load == usage_last_[c]) continue;
    usage_last_[c] = load;
    if (opts_.usage_sink) {
      opts_.usage_sink->sample(c, Sample{now_, load});
    } else {
      trace_.usage[c].push_back(Sample{now_, load});
    }
  }
  memory_.end_instant(now_);
}

// The constraints the last solve changed, each once an instant (SimOptions::record_usage).
void Run::note_usage() {
  for (ConstraintId c : groups_.solver().solved_constraints()) {
    if (usage_seen_[c] >= usage_serial_) continue;  // noted this instant, or not wanted
    usage_seen_[c] = usage_serial_;
    usage_cons_.push_back(c);
  }
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
