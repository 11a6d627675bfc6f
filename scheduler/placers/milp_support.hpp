// What the MILP placers (milp-sortinghat, efficientmip, milp-moirai) share: the solver options
// every one of them declares, the warm start (the best heuristic plan, scored in the engine),
// and the result they return, with an honest status and gap.
//
// Never worse than the heuristics. A MILP's model is not the engine: its optimum is optimal for
// the paper's model, and the plan built from it may simulate slower than a heuristic's (the
// heuristic's plan may not even be expressible in the MILP's slots). So every MILP placer
// scores its own plan and the best heuristic plan by simulating both (lower + engine), and
// returns the faster, saying which in the message and in its record (PlacerResult::milp:
// plan_source, and the MILP's own plan simulated either way).
//
// Status (PlacerResult::status, as RunStatus writes it):
//   ok          every solve proved its optimum (within `gap`)
//   timeout     some solve hit its time or node limit (or had no time left of the budget); the
//               best plan found is returned, and `gap` is the largest relative gap of those
//               solves (+inf: a solve found nothing and the warm start stood in)
//   interrupted as timeout, but a stop was requested (Ctrl-C) while it searched (the runner
//               marks it so: explore::run_placer)
//   infeasible  the model has no solution (the placer names the binding device in `message`)
//   error       CBC failed (never thrown: the warm start is returned with the solver's message)
// time_limit 0 returns the warm start with status timeout, without solving (with warm: none an
// InputError: no plan could come out). node_limit 0 means no node limit, so it needs no such rule.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scheduler/milp/milp.hpp"
#include "scheduler/placer.hpp"

namespace placesim::scheduler {

// Options of every MILP placer: time_limit (wall seconds for the whole placement, shared by its
// solves: SolveBudget; 0: no solve, the warm start),
// node_limit (branch-and-bound nodes per solve; 0: none; reproducible where a time limit is not),
// gap (relative gap at which a solve stops), warm (heuristic placers tried for the warm start;
// `none`: no warm start at all, the solver starts from nothing),
// dump_model (write each model, LP or MPS by extension; several solves get .<k> before it).
std::vector<OptionSpec> milp_option_specs(const std::string& default_time_limit);

struct MilpSettings {
  double time_limit_s = 10;
  std::int64_t node_limit = 0;
  double gap = 1e-6;
  std::vector<std::string> warm;
  bool warm_start = true;  // false for `warm: none`: no heuristic plan, and the solver starts from nothing
  std::string dump_model;

  // `placer`: the MILP placer's own name, which its `warm` may not name. InputError at the
  // option for a bad value, or for time_limit 0 with warm: none (no solve and no warm start:
  // no plan could come out).
  MilpSettings(const PlacerOptions& o, const std::string& placer);
  // Solver options for one solve of problem `p` with `seconds` of wall time (its seed; the
  // solver log with -v).
  milp::SolveOptions solve_options(const Problem& p, double seconds) const;
  // Writes `m` to dump_model (solve k of n > 1: "<stem>.<k><ext>"); nothing when unset.
  void dump(const milp::Model& m, int k, int n) const;
};

// One placement's wall-clock budget: time_limit covers everything from construction (the warm
// start included) to the last solve, so a placement cut into many windows or submodels still
// returns within time_limit plus what one solve may overrun (CBC cannot stop inside one LP).
// Solve k of n gets what is left, shared equally by solves k..n-1: a solve that ends early
// leaves its time to the later ones; once a stop is requested (sim/core/stop_request.hpp) none
// gets any. Reproducible plans come from node_limit, not from this.
class SolveBudget {
 public:
  explicit SolveBudget(double limit_s);
  double share(int k, int n) const;  // seconds, >= 0

 private:
  std::chrono::steady_clock::time_point start_;
  double limit_s_;
};

// A plan's simulated makespan (score_plan); +inf when lowering fails or the peak memory of some
// device exceeds its capacity.
double simulated_makespan(const Problem& p, const Plan& plan);

struct ScoredPlan {
  std::string placer;  // who made it
  Plan plan;
  std::optional<double> predicted_s;  // that placer's own prediction
  double simulated_s = 0;
};

// The placers named in `names` (registered, default options) run on `p`; the one whose plan
// simulates fastest within memory, ties to the earlier name. None when no plan fits.
std::optional<ScoredPlan> best_heuristic(const Problem& p, const std::vector<std::string>& names);

// Outcome of the solves one placement made (one per submodel, or one).
struct SolveSummary {
  // Each solve's model carries the earlier solves' schedule (SortingHat's chaining, MOIRAI's
  // windows): the last solve's objective and bound are the whole placement's. Else the solves
  // run one after another and theirs add up (EfficientMIP).
  bool chained = true;
  int solves = 0;
  int optimal = 0;
  int without_solution = 0;  // NoSolution or Error: the warm start stood in for that solve
  double gap = 0;            // largest gap over the solves
  std::int64_t nodes = 0;
  // Which limit ended the solves that proved nothing: `node_limit` (the placer's, 0: none) when
  // a solve used that many nodes, else the time limit (or no time left of the budget).
  std::int64_t node_limit = 0;
  int at_node_limit = 0, at_time_limit = 0;
  std::string error;         // the first solver error, if any
  std::string note;          // how the solves were arranged, when that is news (MOIRAI's fallback)
  // The model's objective and best bound so far, seconds, combined as `chained` says; none once
  // a solve that counts had no incumbent (objective) or no finite bound.
  std::optional<double> objective_s, bound_s;
  // `seconds_per_unit`: the model's time unit (the placers scale time for CBC's tolerances).
  void add(const milp::Result& r, double seconds_per_unit);
  // "3 solves, 2 optimal, 1 at the node limit, gap 1.2%, 5210 nodes", then the note after a
  // semicolon
  std::string describe() const;
};

// The placer's result: its own plan (with its model's prediction) unless the warm start
// simulates strictly faster, then the warm start's plan without a prediction (the message gives
// the MILP plan's simulated and predicted makespans). Status as the header says. Its `milp`
// record says which was returned and what the MILP's own plan simulates to either way.
PlacerResult finish_milp(const Problem& p, std::optional<Plan> milp_plan, std::optional<double> milp_predicted_s,
                         const SolveSummary& s, const std::optional<ScoredPlan>& warm);

// A placement that ends with no plan because the model is infeasible (the message names the
// binding memory): status infeasible, and the record of the solves made (plan_source "none").
PlacerResult milp_infeasible(const SolveSummary& s, std::string message);

}  // namespace placesim::scheduler
