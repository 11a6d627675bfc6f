// The outcome of one placer at one sweep point, and of a whole scenario run: what
// `placesim run --json` prints and what the HDF5 results file stores.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/explore/serving/serving_metrics.hpp"
#include "scheduler/comm_bytes.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/run_status.hpp"

namespace placesim::explore {

// A whole generation's figures (models/generation.hpp, app/explore/generation_run.hpp); the
// run's makespan_s is its end-to-end latency, TTFT plus every decode step.
struct GenerationResult {
  int input_tokens = 1;
  int output_tokens = 1;   // the prefill's included
  int kv_stride = 1;       // 1: every decode step simulated
  std::optional<double> ttft_s;  // time to first token: the prefill's makespan
  std::optional<double> tpot_s;  // time per output token: the mean decode step; none for output 1
  // Whether the prefill and decode plans keep every weight in the same place; none unless both
  // plans exist.
  std::optional<bool> weights_shared;
  bool operator==(const GenerationResult&) const = default;
};

struct RunResult {
  int point_index = 0;                                    // index of the sweep point
  std::vector<std::pair<std::string, std::string>> point; // axis -> value (YAML text), axis order
  std::string placer;                                     // its label (name, or name + options)
  scheduler::RunStatus status = scheduler::RunStatus::Ok;
  std::optional<double> makespan_s;                       // simulated; none for bounds and failures
  std::optional<double> predicted_s;                      // the placer's own prediction
  std::optional<double> gap;                              // MILP placers: relative optimality gap
  // MILP placers: where the plan came from and what the MILP's own plan simulates to
  // (PlacerResult::milp); none for other placers. A whole generation's is its prefill placement's.
  std::optional<scheduler::MilpRecord> milp;
  std::optional<double> speedup;                          // baseline makespan / this makespan
  std::map<std::string, double> peak_mem_bytes;           // per device id
  std::optional<scheduler::CommBytes> comm_bytes;         // what its plan's transfers moved; none unsimulated
  std::optional<GenerationResult> generation;             // a whole generation's point only
  std::optional<ServingResult> serving;                   // a served request stream's (placesim serve) only
  double placement_s = 0;                                 // wall-clock time of the placer (measured)
  std::string message;
  nlohmann::ordered_json choices;                         // the placer's decisions (PlacerResult::choices); null: none
  std::uint64_t seed = 0;
};

struct RunSet {
  std::string scenario;        // scenario name
  std::string scenario_text;   // the scenario file as given (after --set), for reproducibility
  std::string hardware_text;   // the hardware description used
  std::string baseline;        // baseline placer label, "" when none
  std::vector<std::string> axes;
  // Per axis: whether every value of it is a number (axis_values.hpp); the results file stores
  // such an axis as numbers, and readers get them with axis_number(run.point[k].second).
  std::vector<bool> axis_numeric;
  std::string command;         // the command line that wrote the results file ("" when unknown)
  std::vector<RunResult> runs; // ordered by (point_index, placer order in the scenario)
};

}  // namespace placesim::explore
