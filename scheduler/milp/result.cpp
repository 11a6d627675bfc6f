// Solver-independent parts of milp.hpp: status names and the relative gap.
#include <algorithm>
#include <cmath>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {

std::string_view to_string(Status s) {
  switch (s) {
    case Status::Optimal: return "optimal";
    case Status::Feasible: return "feasible";
    case Status::Infeasible: return "infeasible";
    case Status::Unbounded: return "unbounded";
    case Status::NoSolution: return "no_solution";
    case Status::Error: return "error";
  }
  return "error";
}

double relative_gap(double objective, double best_bound) {
  constexpr double kTiny = 1e-10;  // keeps the gap finite when both are 0
  if (!std::isfinite(objective) || !std::isfinite(best_bound)) return kInf;
  const double diff = objective - best_bound;
  if (diff <= 0.0) return 0.0;
  return diff / std::max({std::abs(objective), std::abs(best_bound), kTiny});
}

}  // namespace placesim::scheduler::milp
