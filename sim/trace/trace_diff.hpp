// Predicted vs measured: two traces of the same TaskGraph compared task by task
// (docs/results.md, "Predicted against measured"; used by `placesim validate`).
//
// A task's duration is end - start (its latency phase included). Its error is relative to the
// measurement:   model_error = (predicted - measured) / measured,
// negative when the simulator is optimistic (the sign of `run`'s prediction_error = (predicted -
// simulated) / simulated: docs/results.md). Tasks measured at zero duration have no relative
// error, and host tasks (TaskKind::Launch: a launch, a sync, a runtime's dispatch) none that
// means anything: a backend's own such task is bookkeeping, and what the host's work costs shows
// as the later start of the kernel or op that waits for it, which the makespan holds. Both are
// counted in `skipped` and left out of every statistic. Over the compared tasks:
//   mean = the mean of |model_error|,
//   p95  = the nearest-rank 95th percentile of |model_error|: the ceil(0.95 n)-th smallest,
//   worst = the tasks with the largest |model_error|, largest first (ties: lower TaskId first).
// With no task compared, mean and p95 are NaN (null in JSON); likewise the makespan error when
// the measured makespan is 0.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace {

struct TaskError {
  engine::TaskId task = -1;
  std::string name;
  double predicted_s = 0;
  double measured_s = 0;
  double model_error = 0;  // (predicted - measured) / measured
};

struct TraceDiff {
  double predicted_s = 0;     // predicted makespan
  double measured_s = 0;      // measured makespan
  double model_error = 0;     // (predicted_s - measured_s) / measured_s
  std::vector<TaskError> tasks;  // every compared task, in TaskId order
  int skipped = 0;               // tasks measured at zero duration, and host tasks
  double mean_abs_error = 0;
  double p95_abs_error = 0;
  std::vector<TaskError> worst;  // at most worst_n tasks
};

inline constexpr std::size_t kDefaultWorstTasks = 10;

TraceDiff diff_traces(const engine::TaskGraph& g, const engine::Trace& predicted,
                      const engine::Trace& measured, std::size_t worst_n = kDefaultWorstTasks);

// {"predicted_s", "measured_s", "model_error", "task_error": {"mean", "p95", "compared", "skipped"},
//  "worst_tasks": [{"task", "name", "predicted_s", "measured_s", "model_error"}...]}: the per-run
// fields of `placesim validate --json`, keys in this order.
nlohmann::ordered_json to_json(const TraceDiff& d);

}  // namespace placesim::trace
