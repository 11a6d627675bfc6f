// `placesim validate`: every placer's plan at every sweep point, predicted by the simulator and
// measured on a real backend, compared task by task (sim/trace/trace_diff.hpp).
//
// Points and placers run one after another (measurements must not share the machine). A run
// whose placer gives no plan, or whose simulated plan does not fit (status infeasible), is
// reported and not executed; a run the backend refuses before it starts (more memory than the
// machine has, a task it cannot execute) gets status "refused", one it ends (watchdog) "error",
// each with the backend's message, and the others go on. Bad input stops everything.
//
// With `cpu_cores` set, each plan runs once per count k in it, with its ops on every CPU it
// uses on k cores (the plan's cpu_cores; docs/execution.md, "CPU cores"): the point gains an axis
// `cpu_cores`. Each measured run also reports the spread of its recorded repeats (the fastest
// and slowest makespan beside the median one), so noise is not mistaken for model error.
#pragma once

#include <functional>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/backend.hpp"
#include "app/explore/run_result.hpp"
#include "app/explore/scenario.hpp"
#include "sim/trace/trace_diff.hpp"

namespace placesim::explore {

struct ValidateOptions {
  std::string backend = "cpu";
  backend::BackendOptions run;
  std::string trace_dir;       // when set: <point>-<placer>[-<k>cores].predicted.json, .measured.json
  std::vector<int> cpu_cores;  // when set: every plan once per core count, as above
  std::function<void(int, int)> progress;  // after each run: runs done, runs in all
};

// The recorded repeats of one measured run: their makespans, fastest and slowest.
struct RepeatSpread {
  std::vector<double> makespans_s;  // in run order
  double min_s = 0, max_s = 0;
  // (max - min) / the kept (median) run's makespan: the band a prediction error must clear
  // before it means anything.
  double relative = 0;
};
RepeatSpread repeat_spread(const std::vector<double>& makespans_s, double median_s);

struct ValidateRun {
  RunResult result;                    // point, placer, status, message, simulated makespan
  std::optional<trace::TraceDiff> diff;  // when it ran on the backend
  RepeatSpread spread;                 // when it ran on the backend
};

struct ValidateSet {
  std::string scenario, backend, scenario_text, hardware_text;
  std::vector<ValidateRun> runs;
};

ValidateSet validate_scenario(const Scenario& s, const ValidateOptions& opts);

// {"backend", "scenario", "runs": [{"point", "placer", "status", "message", then the fields of
// trace::to_json: "predicted_s", "measured_s", "model_error", "task_error", "worst_tasks", then
// "repeats": {"makespans_s": [...], "min_s", "max_s", "spread"}}]}
nlohmann::ordered_json to_json(const ValidateSet& v);
// A table: point, placer, predicted and measured makespan, model_error, the repeats' fastest and
// slowest makespan and their spread, per-task mean and p95.
std::string format_table(const ValidateSet& v);

}  // namespace placesim::explore
