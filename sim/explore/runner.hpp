// Runs every placer at every sweep point of a scenario: place, lower, simulate, check memory.
// A point whose model is a whole generation (phase: generate) runs its prefill and decode steps
// as sim/explore/generation_run.hpp says.
//
// Points run in parallel on local threads; results are stored by index, so the output does not
// depend on the number of threads or on timing. A placer's bad option (InputError) stops the
// whole run; any other failure of one placer is that run's status "error" and the rest go on.
#pragma once

#include <functional>
#include <string>

#include "sim/explore/run_result.hpp"
#include "sim/explore/scenario.hpp"

namespace placesim::explore {

struct RunOptions {
  int jobs = 1;
  std::string trace_dir;  // write a Chrome trace per simulated run when not empty (a generation: two)
  // Called after each finished point (from worker threads, serialised): done, total.
  std::function<void(int, int)> progress;
};

RunSet run_scenario(const Scenario& s, const RunOptions& opts);

// One placer on one problem (also used by `placesim plan` and `simulate`-like tools).
struct SingleRun {
  RunResult result;
  std::optional<scheduler::Plan> plan;
};
SingleRun run_placer(const scheduler::Problem& p, const scheduler::PlacerSpec& placer, const std::string& trace_path);

// baseline makespan / makespan, per point, for runs with status ok.
void fill_speedups(RunSet& set);

}  // namespace placesim::explore
