// Memory accounting for one simulation run (docs/execution.md, "Time, determinism, memory").
//
// Each Buffer adds its bytes to its pool from its allocation event (time 0, or the start or end
// of its alloc_task) until the end of the last task in its free_after (or the end of the run).
// A buffer whose frees all happen before its allocation holds nothing. Holding is a half-open
// interval [alloc, free): a buffer freed at the instant another is allocated never overlaps it,
// so the pool is sampled once per instant, after every change of that instant, and the peak is
// the largest such sample.
#pragma once

#include <vector>

#include "sim/core/id_rows.hpp"

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::engine {

class MemoryLedger {
 public:
  // Allocates the buffers with no alloc_task (time 0).
  explicit MemoryLedger(const TaskGraph& g);

  void task_started(TaskId t);
  void task_ended(TaskId t);
  // Call once per instant, after its last change: records a sample for each pool whose bytes
  // changed (every pool at the first call).
  void end_instant(TimePs now);
  // Moves the series and peaks into the trace.
  void write(Trace& trace);

 private:
  void allocate(std::int32_t buffer);
  void free_one(std::int32_t buffer);
  void change(PoolId pool, double delta);

  // Per task, its buffers in ascending id, as compressed rows (IdRows): a few bytes per task,
  // most of which have none. No rows at all when no task has any (a collective's millions of
  // tasks hold no buffer). Buffers b listed under each task that task_of(b) names (none for -1).
  template <class TasksOf>
  static IdRows per_task(const TaskGraph& g, TasksOf tasks_of);

  const TaskGraph& g_;
  // Per task, the buffers it allocates at start / at end and those it helps free at end.
  IdRows alloc_at_start_, alloc_at_end_, frees_at_end_;
  std::vector<std::int32_t> frees_left_;  // per buffer: free_after tasks not yet ended
  std::vector<char> allocated_;           // per buffer
  std::vector<double> bytes_;             // per pool, in use now
  std::vector<char> changed_;             // per pool, since the last sample
  std::vector<PoolId> changed_pools_;
  std::vector<std::vector<Sample>> series_;
};

}  // namespace placesim::engine
