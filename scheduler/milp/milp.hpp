// The MILP solver interface the placers use (README.md, "MILP placers"): solve a Model under limits,
// with an optional warm start, and read back status, objective, best bound and gap. Also dump
// a model as LP or MPS (--dump-model) and load one back.
//
// Backed by COIN-OR CBC (cbc_solver.cpp, the only file that sees COIN headers).
//
// Limits. time_limit is wall-clock time: the wrapper stops CBC from its event handler at the
// deadline (CBC's own seconds are CPU time; CBC's preprocessing, which crashed CBC 2.10 on our
// models, is off). A solve returns soon after its limit; a single LP solve cannot be cut
// short (bench/bench_milp.cpp and bench/bench_milp_placers.cpp measure the overrun). A limit
// of 0 searches nothing: the warm start is completed by one LP and returned (Feasible, bound
// -inf), or NoSolution. Wall-clock limits are guards; for reproducible results use node_limit
// with threads = 1 and a fixed seed: the same model and options then give identical values.
//
// Status after a solve:
//   Optimal     proven optimal (within relative_gap)
//   Feasible    a limit (time, nodes) was reached with an incumbent; `gap` says how far it is
//               from proven. A solve that ends past its time limit is Feasible or NoSolution,
//               never Optimal, Infeasible or Unbounded: a search cut short proves nothing.
//   Infeasible  no assignment satisfies the rows and bounds
//   Unbounded   the objective decreases without bound (reported when the LP relaxation is)
//   NoSolution  a limit was reached before any incumbent was found
//   Error       CBC failed, threw, crashed (each search runs in a child process: isolated.hpp),
//               or returned an assignment that breaks the model by more than 1e-6 (every
//               solution is checked); `message` says why. Never an exception, never a crash.
// A search still running at its time limit plus a grace (the limit, at least 5 s) is killed:
// NoSolution, with a message.
//
// Gap: (objective - best_bound) / max(|objective|, |best_bound|, 1e-10), 0 when optimal, +inf
// without an incumbent.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scheduler/milp/model.hpp"

namespace placesim::scheduler::milp {

struct SolveOptions {
  std::optional<std::chrono::duration<double>> time_limit;  // wall clock; none: no limit
  std::optional<std::int64_t> node_limit;                   // branch-and-bound nodes
  double relative_gap = 0.0;                                // stop once proven within this
  int seed = 1;                                             // CBC's and Clp's random seeds
  int threads = 1;                                          // reproducible only with 1
  bool verbose = false;                                     // solver log to stderr (-v)
  double seconds_per_unit = 0;  // the objective's time unit, for the progress line; 0: not a time
  // A full or partial assignment, e.g. from a heuristic plan. CBC fixes the given integer
  // variables and solves the LP for the rest; when that completion is integral and feasible it
  // is the incumbent from the start (so give every integer variable; continuous ones may be
  // left out). An infeasible or incomplete start is dropped and the search goes on without.
  std::vector<std::pair<VarId, double>> warm_start;
};

enum class Status { Optimal, Feasible, Infeasible, Unbounded, NoSolution, Error };
std::string_view to_string(Status s);

struct Result {
  Status status = Status::Error;
  std::string message;       // why, for Error; empty otherwise
  double objective = kInf;   // of the incumbent; +inf without one
  double best_bound = -kInf; // proven lower bound on the optimum
  double gap = kInf;
  std::vector<double> values;  // one per variable, empty without an incumbent
  std::int64_t nodes = 0;
  double wall_seconds = 0.0;

  bool has_solution() const { return !values.empty(); }
  double value(VarId v) const { return values.at(static_cast<std::size_t>(v.index)); }
};

Result solve(const Model& model, const SolveOptions& options = {});

// Relative gap as defined above.
double relative_gap(double objective, double best_bound);

enum class ModelFormat { Lp, Mps };
// InputError when the file cannot be written or read. read_model takes the format from the
// extension (.lp, .mps) and keeps names, bounds, objective and integrality (an integer variable
// with bounds within [0, 1] reads back as Binary); it is meant for files write_model wrote. The
// LP format has no range rows: a range row R is written, and reads back, as R (<= upper) and
// R_low (>= lower). MPS (free format, full precision) keeps everything.
void write_model(const Model& model, const std::filesystem::path& path, ModelFormat format);
Model read_model(const std::filesystem::path& path);

}  // namespace placesim::scheduler::milp
