// The CPU backend: runs a TaskGraph on this machine for real, under the execution contract
// (docs/execution.md): a task starts when all its dependencies have ended and the task before it in its
// queue has ended.
//
//   * one worker thread per non-empty queue, pinned with hwloc to its unit's first PU (a queue on
//     host memory runs unpinned); the worker walks its queue in order, so queue order costs
//     nothing. A unit of one core runs each kernel on the worker alone (single-threaded BLAS);
//     a unit of k cores runs it in k parts, on the worker and k - 1 helpers pinned to the
//     unit's next PUs (backend/cpu/core_team.hpp);
//   * a dependency is waited for on that task's own completion word (C++20 atomic wait: a futex),
//     so a worker sleeps until exactly the task it needs has ended and no other end wakes it;
//   * buffers are allocated and touched by each worker before the first run; a workload that
//     needs more than kMaxMemoryFraction of the machine's memory is refused (InputError) first;
//   * `warmup` unrecorded runs, then `repeats` recorded ones; the measured trace is the run with
//     the median makespan (backend/measured_trace.hpp);
//   * a watchdog: when one run has not finished `watchdog_s` after it began, every worker is
//     released and WatchdogError names a task that never finished and what it waits for.
// GPU units and Dha work need the CUDA backend: InputError before anything runs.
#pragma once

#include <stdexcept>

#include "backend/backend.hpp"
#include "backend/workload.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::backend {

inline constexpr double kMaxMemoryFraction = 0.8;

class WatchdogError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Measurement run_cpu(const engine::TaskGraph& g, const Workload& w, const BackendOptions& opts = {});

}  // namespace placesim::backend
