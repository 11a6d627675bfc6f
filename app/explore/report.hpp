// Presenting a RunSet: the `--json` document of `placesim run`, and the comparison table
// (makespan and speed-up over the baseline per sweep point, geometric mean per placer, a MILP
// placer's cell marked with the warm start it returned, a bound shown as one: ">= 4.0 ms", never
// a speed-up; then the bytes each plan sent between devices, in total and across nodes; then
// each MILP placer's own plan, returned or not) that `placesim run` and `placesim compare` print.
// What `compare` adds (summary, pivots, memory, placement time) is in compare_summary.hpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <nlohmann/json.hpp>

#include "app/explore/run_result.hpp"
#include "app/explore/speedup_stats.hpp"
#include "app/explore/text_table.hpp"

namespace placesim::explore {

// A bound's run carries its prediction as lower_bound_s too (null for every other run).
// timing: include placement_s (a wall-clock measurement, so it differs between runs; without
// it the document is byte-identical for identical inputs).
nlohmann::ordered_json runs_to_json(const RunSet& set, bool timing);

// A MILP placer's record as `--json` prints it under "milp" (`run` and `plan`): plan_source,
// makespan_s (the MILP's own plan, simulated), objective_s, bound_s, solves, optimal, nodes;
// null for other placers. Absent figures (and infinities, which JSON lacks) are null.
nlohmann::ordered_json milp_json(const std::optional<scheduler::MilpRecord>& m);

// makespan (simulated; a whole generation's end-to-end latency), predicted (the placer's own),
// ttft and tpot (a whole generation's time to first token and time per output token), and a
// served stream's latencies (`placesim serve`): mean_ttft, p50_ttft, ... p99_e2e, its mean, p50,
// p90 or p99 of the time to first token, per output token or end to end, in that order.
enum class Metric {
  Makespan, Predicted, Ttft, Tpot,
  MeanTtft, P50Ttft, P90Ttft, P99Ttft, MeanTpot, P50Tpot, P90Tpot, P99Tpot, MeanE2e, P50E2e, P90E2e, P99E2e
};
Metric parse_metric(const std::string& s);  // InputError when unknown
const char* to_string(Metric m);

// A bound (critical-path): a run that ended ok with a prediction and no simulated makespan. Its
// prediction bounds the makespan from below; it is never a placement to take a speed-up of.
bool is_bound(const RunResult& r);

struct Comparison {
  std::string baseline;
  Metric metric = Metric::Makespan;
  std::vector<std::string> placers;  // labels in scenario order
  std::vector<std::string> axes;     // the set's, with which of them are numeric (point_json)
  std::vector<bool> axis_numeric;
  struct Row {
    std::vector<std::pair<std::string, std::string>> point;
    std::vector<std::optional<double>> value;    // per placer: the metric, seconds
    std::vector<std::optional<double>> speedup;  // per placer: baseline value / value
    std::vector<std::optional<double>> bound;    // per placer: a bound's prediction (makespan, predicted)
    std::vector<std::string> status;  // per placer: its RunStatus word, "bound" for a bound; "": no run
    std::vector<std::optional<scheduler::CommBytes>> comm;  // per placer: what its plan moved
    std::vector<std::optional<scheduler::MilpRecord>> milp;  // per placer: a MILP placer's record
    std::vector<std::optional<double>> gap;                  // per placer: a MILP placer's gap
    std::vector<std::map<std::string, double>> peak_mem;     // per placer: peak bytes per device
    std::vector<std::optional<double>> placement_s;          // per placer: measured; none without a run
  };
  std::vector<Row> rows;
  std::vector<SpeedupStats> stats;  // per placer: its speed-ups, over the points where defined
};

// baseline: "" uses the run's own baseline; a name not among the placers is an InputError.
Comparison compare(const RunSet& set, const std::string& baseline, Metric metric);
std::string format_comparison(const Comparison& c, TableStyle style = TableStyle::Text);
nlohmann::ordered_json comparison_to_json(const Comparison& c);
// Each run's placement_s (the placer's wall-clock time), point by placer: `run --timing`'s table.
std::string format_timing(const RunSet& set);

}  // namespace placesim::explore
