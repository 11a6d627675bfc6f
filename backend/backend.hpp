// Choosing a real executor by name (`--backend cpu|cuda`) and the options every one takes.
//
// Each backend runs a TaskGraph with its Workload and returns a Measurement: `warmup`
// unrecorded runs, then `repeats` recorded ones, the run with the median makespan kept as the
// measured Trace, and every recorded run's makespan beside it; a run not finished after
// `watchdog_s` is ended and the error names a task that never finished.
#pragma once

#include <string>

#include "backend/measured_trace.hpp"
#include "backend/workload.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::backend {

struct BackendOptions {
  int warmup = 1;
  int repeats = 3;
  double watchdog_s = 60;
};

// InputError for an unknown name, and for `cuda` when placesim was built without CUDA or this
// machine has no usable GPU (the message says which).
void require_backend(const std::string& name);

Measurement run_backend(const std::string& name, const engine::TaskGraph& g, const Workload& w,
                        const BackendOptions& opts);

}  // namespace placesim::backend
