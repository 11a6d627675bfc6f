// The placer interface and its registry (docs/placers.md).
//
// A placer reads a Problem and returns a Plan plus, where it has one, its own predicted
// makespan. A bound (critical-path) returns a prediction and no plan. Placers are registered
// by name with their declared options (name, default, help); an option not declared is an
// InputError at its location in the scenario.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scheduler/placer_facts.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"
#include "scheduler/run_status.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::scheduler {

// What a MILP placer found, beside the plan it returns (milp_support.hpp, finish_milp), so a
// comparison shows what each policy found and not only what it returned. Other placers have none.
struct MilpRecord {
  // Where the returned plan came from: "milp" (the MILP's own), or "warm:<placer>" (the warm-start
  // heuristic's plan, which simulated faster or stood in for a MILP that found none).
  std::string plan_source;
  // The MILP's own plan: its simulated makespan (returned or not; none when the MILP made no plan
  // or its plan does not fit in memory), and its model's objective and best bound, in seconds
  // (none without a plan; the bound also when no solve proved one). With several solves, those
  // of the last when each solve carries the earlier ones' schedule (SortingHat's chained
  // submodels, MOIRAI's windows: that bound holds given the earlier solves' choices, so the
  // placer's `gap`, the largest over its solves, says how far from proven the whole is), else
  // their sums (EfficientMIP's submodels run one after another).
  std::optional<double> makespan_s;
  std::optional<double> objective_s;
  std::optional<double> bound_s;
  int solves = 0;
  int optimal = 0;            // solves proven optimal (within the placer's gap)
  std::int64_t nodes = 0;     // branch-and-bound nodes over the solves
  bool operator==(const MilpRecord&) const = default;
};

struct PlacerResult {
  std::optional<Plan> plan;          // none for bounds
  std::optional<double> predicted_s; // the placer's own prediction, if it makes one
  RunStatus status = RunStatus::Ok;
  std::string message;
  std::optional<double> gap;         // MILP placers: relative optimality gap of their solves
  std::optional<MilpRecord> milp;    // MILP placers: what the MILP found (none for other placers)
  // The placer's own decisions, structured for scripts (`choices` in `placesim run --json` and
  // `placesim plan --json`): asymgroup's k, groups and volume, the TP degree, per-layer rates.
  // Null when it has none to report; the message says the same in words.
  nlohmann::ordered_json choices;
};

class Placer {
 public:
  virtual ~Placer() = default;
  virtual PlacerResult place(const Problem& p) const = 0;
  // The checks of its options against a problem that place() makes before any work, throwing
  // the InputError place() would: `run --dry-run` calls it at every point, so an option that
  // does not suit a point is found before a run starts. Most placers check nothing there.
  virtual void check(const Problem&) const {}
};

// The options a scenario gave one placer, checked against the declared ones; values not
// given fall back to the declared defaults.
class PlacerOptions {
 public:
  PlacerOptions(const std::vector<OptionSpec>& specs, const Yaml& given);  // InputError on unknown keys
  Yaml get(const std::string& name) const;  // given value, else the default parsed as YAML
 private:
  std::map<std::string, Yaml> values_;
};

// Heuristic: makes a plan by its own rules. Milp: solves MILPs, declares milp_option_specs()
// and starts from a heuristic's plan. Bound: returns a bound on the makespan, not a plan.
// Given: returns the plan in the file its `path` option names (plan-file), so it needs that
// input and makes no choice.
enum class PlacerKind { Heuristic, Milp, Bound, Given };

struct PlacerEntry {
  std::string description;
  std::vector<OptionSpec> options;
  PlacerKind kind = PlacerKind::Heuristic;
  std::function<std::unique_ptr<Placer>(const PlacerOptions&)> make;
  PlacerFacts facts{};
};

Registry<PlacerEntry>& placers();  // filled with the built-in placers on first use

// One placer as named in a scenario: `name` or `{name: X, option: value, ...}`.
struct PlacerSpec {
  std::string name;
  std::string label;   // name, plus its options when given ("round-robin{unit=op}")
  std::shared_ptr<const Placer> placer;
  PlacerKind kind = PlacerKind::Heuristic;
  SourceLoc where;  // its entry in the scenario (or --placer)
};
PlacerSpec make_placer(const Yaml& spec);
// What a placer found wrong with the problem it was given, at the placer's entry when the error
// names no place of its own ("no device of 'nc' can run every op": the placer was asked for).
InputError located(const PlacerSpec& placer, const InputError& e);
// The label a placer spec gets in results: "round-robin", or "round-robin{unit=op}".
std::string placer_label(const Yaml& spec);

// Devices a placer spreads over by default: the GPUs, or every compute device when none.
std::vector<int> default_devices(const hw::Topology& topo);

}  // namespace placesim::scheduler
