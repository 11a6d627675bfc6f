// milp.hpp on COIN-OR CBC 2.10: the only translation unit that includes COIN headers, built
// into the CBC module (cbc_api.hpp; solve.cpp runs its searches in a child process).
//
// A solve loads the Model into OsiClpSolverInterface and runs CBC's standalone driver
// (CbcMain0 for its defaults, CbcMain1 with arguments): it adds the cut generators and
// heuristics that a bare CbcModel::branchAndBound lacks. Arguments fix the thread
// count and the random seeds, so a node-limited solve with one thread is reproducible.
//
// Preprocessing (CglPreProcess) is off. In CBC 2.10 (Debian's) it took the process down twice
// on the SortingHat and MOIRAI models: stopped part-way by CBC's own "-sec" limit, its
// postprocessing dereferenced what it never built (SIGSEGV in CglPreProcess::postProcess); and
// on a MOIRAI window of GPT-3 (5 layers, coarsened, sortinghat-v100) the preprocessed model
// failed an assertion in OsiClpSolverInterface::crunch during the search (SIGABRT). Both are
// gone without it, and the solver loses little on these models: their structure is big-M
// sequencing, which preprocessing barely tightens.
//
// Wall-clock time: a CbcEventHandler answers `stop` to every CBC event after the deadline (or a
// stop request: Ctrl-C, sim/core/stop_request.hpp)
// (std::chrono::steady_clock: node done, solution, heuristic pass, cuts generated, also inside
// CBC's sub-MIPs). CBC's own "-sec" is not used: it counts CPU time unless told otherwise, and
// it is what stopped preprocessing part-way. A single LP solve (Clp) runs to its end: it is what
// a limit can overrun by (bench/bench_milp_placers.cpp measures it). Stopping Clp from its event
// handler leaves CBC's postprocessing with a broken LP (it then returns a fractional
// "incumbent"), so we do not. Once the deadline has passed the result is never Optimal,
// Infeasible or Unbounded (a search cut short proves nothing): Feasible with CBC's incumbent, or
// NoSolution.
//
// A time limit of 0 runs no search at all (no root relaxation, cuts or heuristics): the warm
// start, its integer variables fixed and the rest from one LP, is the result (Feasible, bound
// unknown), or NoSolution when that LP is infeasible. Placers whose budget is spent get their
// heuristic plan back at the cost of one LP.
//
// The warm start goes in through CbcModel::setMIPStart (by column name): CBC fixes the given
// integer variables, solves the LP for the rest and, when that is integral and feasible,
// installs it as incumbent before the search. The deadline is armed only while CBC searches
// (CbcMain1's callback, whereFrom 3 to 4), so a short limit still returns the warm start.
//
// COIN throws CoinError and may throw std exceptions; every one becomes Status::Error, and so
// do an incumbent that fails Model::max_violation and a crash of the process the search runs in
// (isolated.hpp: Debian's CBC aborts on some of its own assertions).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <functional>
#include <string>
#include <vector>

#include "CbcEventHandler.hpp"
#include "CbcModel.hpp"
#include "CbcSolver.hpp"
#include "ClpSimplex.hpp"
#include "CoinError.hpp"
#include "CoinMessageHandler.hpp"
#include "CoinMpsIO.hpp"
#include "CoinPackedMatrix.hpp"
#include "OsiClpSolverInterface.hpp"
#include "scheduler/milp/cbc_api.hpp"
#include "scheduler/milp/isolated.hpp"
#include "scheduler/milp/milp.hpp"
#include "sim/core/module.hpp"
#include "sim/core/activity.hpp"
#include "sim/core/error.hpp"
#include "sim/core/stop_request.hpp"

namespace placesim::scheduler::milp {
namespace {

using Clock = std::chrono::steady_clock;

// CBC's solutions are checked against the model (Model::max_violation) before they are returned;
// CBC itself works to 1e-7 (primal and integer tolerances).
constexpr double kFeasibilityTolerance = 1e-6;

Result error_result(std::string message) {
  Result r;
  r.status = Status::Error;
  r.message = std::move(message);
  return r;
}

// The wall-clock deadline the event handler reads (CBC clones handlers, so the handler holds a
// pointer to it). Armed only while CBC searches: the warm start is completed before, and CBC's
// postprocessing after the search re-solves an LP to recover the incumbent in the original
// columns, which must not be cut short.
class Deadline {
 public:
  explicit Deadline(std::optional<Clock::time_point> at) : at_(at) {}
  void arm(bool on) { armed_ = on; }
  // Reached at the deadline, or once a stop is requested (Ctrl-C: this process's own flag, or
  // the parent's through the shared record), which ends the search as the deadline does.
  bool reached() {
    if (!armed_) return false;
    const LiveSolve* live = live_solve();
    if (!reached_ && ((at_ && Clock::now() >= *at_) || stop_requested() || (live && live->stop))) reached_ = true;
    return reached_;
  }
  // Whether the limit has passed, armed or not: a search that began after it proves nothing.
  bool passed() const { return reached_ || (at_ && Clock::now() >= *at_); }

 private:
  std::optional<Clock::time_point> at_;
  bool armed_ = false;
  bool reached_ = false;
};

// The solver's log under -v, each line prefixed with the work it belongs to ("[point 3
// milp-moirai]", sim/core/activity.hpp): several sweep points solve at once and their logs
// interleave on stderr.
class LabelledLog final : public CoinMessageHandler {
 public:
  LabelledLog() : CoinMessageHandler(stderr), label_(current_activity()) {}
  int print() override {
    if (label_.empty()) return CoinMessageHandler::print();
    std::fprintf(stderr, "[%s] %s\n", label_.c_str(), messageBuffer());
    return 0;
  }
  CoinMessageHandler* clone() const override { return new LabelledLog(*this); }

 private:
  std::string label_;
};

// Stops the search at the deadline, and records what it has found for the progress display
// (isolated.hpp, LiveSolve) at most every kLiveEvery: the best bound walks the open nodes.
class CbcDeadlineHandler final : public CbcEventHandler {
 public:
  explicit CbcDeadlineHandler(Deadline* deadline) : deadline_(deadline) {}
  CbcAction event(CbcEvent) override {
    LiveSolve* live = live_solve();
    if (live && model_ && Clock::now() >= next_live_) {
      next_live_ = Clock::now() + kLiveEvery;
      if (model_->bestSolution()) live->incumbent = model_->getObjValue();
      live->bound = model_->getBestPossibleObjValue();
      live->nodes = model_->getNodeCount();
    }
    return deadline_->reached() ? stop : noAction;
  }
  CbcEventHandler* clone() const override { return new CbcDeadlineHandler(*this); }

 private:
  static constexpr auto kLiveEvery = std::chrono::milliseconds(200);
  Deadline* deadline_;
  Clock::time_point next_live_{};
};

// CBC's driver takes no user data in its callback: the deadline of the solve under way on this
// thread is found here.
thread_local Deadline* t_deadline = nullptr;

int on_driver_step(CbcModel*, int where_from) {
  constexpr int kBeforeBranchAndBound = 3, kAfterBranchAndBound = 4;
  if (t_deadline && (where_from == kBeforeBranchAndBound || where_from == kAfterBranchAndBound)) {
    t_deadline->arm(where_from == kBeforeBranchAndBound);
  }
  return 0;
}

double to_coin(double v, double coin_inf) {
  if (v == kInf) return coin_inf;
  if (v == -kInf) return -coin_inf;
  return v;
}

double from_coin(double v, double coin_inf) {
  if (v >= coin_inf) return kInf;
  if (v <= -coin_inf) return -kInf;
  return v;
}

// Rows, bounds, objective, integrality and names, into a fresh Clp interface.
void load(const Model& m, OsiClpSolverInterface& lp) {
  const double inf = lp.getInfinity();
  std::vector<CoinBigIndex> starts{0};
  std::vector<int> lengths, indices;
  std::vector<double> elements, row_lower, row_upper;
  for (const Row& r : m.rows()) {
    for (const Term& t : r.terms) {
      indices.push_back(t.var.index);
      elements.push_back(t.coef);
    }
    lengths.push_back(static_cast<int>(r.terms.size()));
    starts.push_back(static_cast<CoinBigIndex>(indices.size()));
    row_lower.push_back(to_coin(r.lower, inf));
    row_upper.push_back(to_coin(r.upper, inf));
  }
  const CoinPackedMatrix matrix(false, m.num_vars(), m.num_rows(), static_cast<CoinBigIndex>(elements.size()),
                                elements.data(), indices.data(), starts.data(), lengths.data());
  std::vector<double> col_lower, col_upper, objective;
  for (const Variable& v : m.vars()) {
    col_lower.push_back(to_coin(v.lower, inf));
    col_upper.push_back(to_coin(v.upper, inf));
    objective.push_back(v.objective);
  }
  lp.loadProblem(matrix, col_lower.data(), col_upper.data(), objective.data(), row_lower.data(), row_upper.data());
  lp.setIntParam(OsiNameDiscipline, 2);
  for (int j = 0; j < m.num_vars(); ++j) {
    if (m.vars()[static_cast<std::size_t>(j)].is_integer()) lp.setInteger(j);
    lp.setColName(j, m.vars()[static_cast<std::size_t>(j)].name);
  }
  for (int i = 0; i < m.num_rows(); ++i) lp.setRowName(i, m.rows()[static_cast<std::size_t>(i)].name);
  lp.setObjName("obj");
}

// Shortest decimal that reads back as the same double (std::to_string keeps 6 decimals).
std::string number(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

std::vector<std::string> driver_arguments(const SolveOptions& o) {
  std::vector<std::string> args{"placesim",       "-randomSeed",    std::to_string(o.seed),
                                "-randomCbcSeed", std::to_string(o.seed),
                                "-ratioGap",      number(o.relative_gap),
                                "-log",           o.verbose ? "1" : "0",
                                "-slog",          o.verbose ? "1" : "0"};
  // CBC's "-threads 1" starts one worker thread beside a waiting main thread; its default (0)
  // is the serial code, which is what one thread means here.
  if (o.threads > 1) args.insert(args.end(), {"-threads", std::to_string(o.threads)});
  if (o.node_limit) args.insert(args.end(), {"-maxNodes", std::to_string(*o.node_limit)});
  // No CglPreProcess (see the top of this file): it is where CBC 2.10 crashed on our models.
  args.insert(args.end(), {"-preprocess", "off", "-zeroHalfCuts", "off"});
  args.insert(args.end(), {"-solve", "-quit"});
  return args;
}

// CBC's primary and secondary status (CbcModel.hpp, "status"), read after the driver returns.
constexpr int kFinished = 0, kStopped = 1, kUserEvent = 5;
constexpr int kRelaxationInfeasible = 1, kStoppedOnGap = 2, kRelaxationUnbounded = 7;

Status classify(const CbcModel& model, bool has_solution, bool deadline_reached) {
  const int status = model.status();
  const int secondary = model.secondaryStatus();
  if (deadline_reached) return has_solution ? Status::Feasible : Status::NoSolution;
  if (status == kFinished || status == kStopped || status == kUserEvent) {
    if (secondary == kRelaxationInfeasible && !has_solution) return Status::Infeasible;
    if (secondary == kRelaxationUnbounded || model.isContinuousUnbounded()) return Status::Unbounded;
    // A search that ends within the requested gap proves what Optimal promises. CBC reports it
    // as finished (0/0); as finished with the relaxation infeasible (0/1) when nothing better
    // than its incumbent (often the warm start) remains below the cutoff; or as stopped on gap
    // (1/2) when its first incumbent already meets the relaxation's bound.
    if (has_solution && ((status == kFinished && (secondary == 0 || secondary == kRelaxationInfeasible)) ||
                         secondary == kStoppedOnGap)) {
      return Status::Optimal;
    }
    if (status == kFinished && model.isProvenInfeasible()) return Status::Infeasible;
    return has_solution ? Status::Feasible : Status::NoSolution;
  }
  return Status::Error;
}

// The result of a time limit of 0 (see the top of this file).
Result complete_warm_start(const Model& m, const SolveOptions& o) {
  Result r;
  r.status = Status::NoSolution;
  if (o.warm_start.empty()) return r;
  OsiClpSolverInterface lp;
  load(m, lp);
  lp.messageHandler()->setLogLevel(0);
  lp.getModelPtr()->setLogLevel(0);
  for (const auto& [var, value] : o.warm_start) {
    if (!m.vars()[static_cast<std::size_t>(var.index)].is_integer()) continue;
    lp.setColBounds(var.index, std::round(value), std::round(value));
  }
  lp.initialSolve();
  if (!lp.isProvenOptimal()) return r;
  std::vector<double> values(lp.getColSolution(), lp.getColSolution() + m.num_vars());
  for (int j = 0; j < m.num_vars(); ++j) {
    if (!m.vars()[static_cast<std::size_t>(j)].is_integer()) continue;
    if (std::abs(values[j] - std::round(values[j])) > kFeasibilityTolerance) return r;  // an integer left free
    values[j] = std::round(values[j]);
  }
  if (m.max_violation(values).amount > kFeasibilityTolerance) return r;
  r.status = Status::Feasible;
  r.values = std::move(values);
  r.objective = m.objective_value(r.values);
  r.gap = relative_gap(r.objective, r.best_bound);
  return r;
}

Result run_cbc(const Model& m, const SolveOptions& o, Deadline& deadline) {
  LabelledLog to_stderr;
  OsiClpSolverInterface lp;
  load(m, lp);
  if (o.verbose) {
    lp.passInMessageHandler(&to_stderr);
  } else {
    lp.messageHandler()->setLogLevel(0);
  }

  CbcModel model(lp);
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  data.noPrinting_ = !o.verbose;
  data.useSignalHandler_ = false;  // SIGINT belongs to the application
  if (o.verbose) model.passInMessageHandler(&to_stderr);
  else model.messageHandler()->setLogLevel(0);  // passInPriorities below logs at level 1
  const CbcDeadlineHandler cbc_handler(&deadline);
  model.passInEventHandler(&cbc_handler);
  // Branching priorities (Variable::priority) go to CBC's integer objects, which the driver
  // copies into the model it searches; its preprocessing, which would renumber them, is off.
  std::vector<int> priorities;
  for (const Variable& v : m.vars())
    if (v.is_integer()) priorities.push_back(v.priority);
  if (std::any_of(priorities.begin(), priorities.end(), [](int p) { return p != Variable::kDefaultPriority; })) {
    model.findIntegers(false);
    model.passInPriorities(priorities.data(), false);
  }
  if (!o.warm_start.empty()) {
    std::vector<std::pair<std::string, double>> start;
    for (const auto& [var, value] : o.warm_start) start.emplace_back(m.var(var).name, value);
    model.setMIPStart(start);
  }

  const std::vector<std::string> args = driver_arguments(o);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  t_deadline = &deadline;
  CbcMain1(static_cast<int>(argv.size()), argv.data(), model, on_driver_step, data);
  t_deadline = nullptr;

  Result r;
  const double* best = model.bestSolution();
  const bool has_solution = best != nullptr && model.getNumCols() == m.num_vars();
  r.status = classify(model, has_solution, deadline.passed());
  r.nodes = model.getNodeCount();
  if (r.status == Status::Error) {
    return error_result("CBC stopped with status " + std::to_string(model.status()) + "/" +
                        std::to_string(model.secondaryStatus()));
  }
  if (r.status == Status::NoSolution) r.best_bound = from_coin(model.getBestPossibleObjValue(), lp.getInfinity());
  if (r.status != Status::Optimal && r.status != Status::Feasible) return r;
  r.values.assign(best, best + m.num_vars());
  const Model::Violation broken = m.max_violation(r.values);
  if (broken.amount > kFeasibilityTolerance) {
    return error_result("CBC returned an assignment that breaks " + broken.where + " by " + number(broken.amount));
  }
  r.objective = m.objective_value(r.values);
  // A completed search proves the incumbent optimal; otherwise (limits, relative_gap) CBC's bound.
  const bool proven = r.status == Status::Optimal && model.secondaryStatus() != kStoppedOnGap;
  r.best_bound = proven ? r.objective : std::min(r.objective, from_coin(model.getBestPossibleObjValue(), lp.getInfinity()));
  r.gap = relative_gap(r.objective, r.best_bound);
  return r;
}

Result guarded(const std::function<Result()>& solve) {
  try {
    return solve();
  } catch (const CoinError& e) {
    return error_result("CBC: " + e.className() + "::" + e.methodName() + ": " + e.message());
  } catch (const std::exception& e) {
    return error_result(std::string("CBC: ") + e.what());
  } catch (...) {
    return error_result("CBC: unknown exception");
  }
}

Result search(const Model& model, const SolveOptions& options, std::optional<Clock::time_point> at) {
  Deadline deadline(at);
  return guarded([&] { return run_cbc(model, options, deadline); });
}

Result warm_start_only(const Model& model, const SolveOptions& options) {
  return guarded([&] { return complete_warm_start(model, options); });
}

// COIN's writers and readers print an error and exit() on a file they cannot open, so the file
// is opened here first.
void write_model_file(const Model& model, const std::filesystem::path& path, ModelFormat format) {
  const std::string file = path.string();
  const std::unique_ptr<FILE, int (*)(FILE*)> out(std::fopen(file.c_str(), "w"), &std::fclose);
  if (!out) throw InputError("cannot write MILP model to " + file);
  OsiClpSolverInterface lp;
  load(model, lp);
  lp.messageHandler()->setLogLevel(0);
  std::vector<const char*> col_names, row_names;
  for (const Variable& v : model.vars()) col_names.push_back(v.name.c_str());
  for (const Row& r : model.rows()) row_names.push_back(r.name.c_str());
  int rc = 0;
  if (format == ModelFormat::Lp) {
    row_names.push_back("obj");
    constexpr double kIntegerEpsilon = 1e-30;  // write every coefficient as it is
    constexpr int kTermsPerLine = 10, kDecimals = 17;
    rc = lp.writeLpNative(out.get(), row_names.data(), col_names.data(), kIntegerEpsilon, kTermsPerLine, kDecimals);
  } else {
    // CoinMpsIO directly: Osi's writer gzips to file.gz when COIN was built with zlib.
    std::vector<char> integrality;
    for (const Variable& v : model.vars()) integrality.push_back(v.is_integer() ? 1 : 0);
    CoinMpsIO mps;
    mps.messageHandler()->setLogLevel(0);
    mps.setMpsData(*lp.getMatrixByCol(), lp.getInfinity(), lp.getColLower(), lp.getColUpper(), lp.getObjCoefficients(),
                   integrality.data(), lp.getRowLower(), lp.getRowUpper(), col_names.data(), row_names.data());
    constexpr int kUncompressed = 0, kExtraAccuracy = 1, kFieldsPerLine = 2;
    rc = mps.writeMps(file.c_str(), kUncompressed, kExtraAccuracy, kFieldsPerLine);
  }
  if (rc != 0) throw InputError("cannot write MILP model to " + file);
}

Model read_model_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string ext = path.extension().string();
  if (ext != ".lp" && ext != ".mps") throw InputError(file + ": MILP model file must end in .lp or .mps");
  if (!std::ifstream(path)) throw InputError("cannot read MILP model " + file);
  OsiClpSolverInterface lp;
  lp.messageHandler()->setLogLevel(0);
  lp.getModelPtr()->setLogLevel(0);  // Clp's own handler reads MPS
  lp.setIntParam(OsiNameDiscipline, 2);
  int errors = -1;
  try {
    errors = ext == ".lp" ? lp.readLp(file.c_str()) : lp.readMps(file.c_str(), true, false);
  } catch (const CoinError& e) {
    throw InputError(file + ": " + e.message());
  }
  if (errors != 0) throw InputError(file + ": " + std::to_string(errors) + " errors reading MILP model");

  const double inf = lp.getInfinity();
  Model m;
  for (int j = 0; j < lp.getNumCols(); ++j) {
    const double lo = from_coin(lp.getColLower()[j], inf), hi = from_coin(lp.getColUpper()[j], inf);
    const VarType type = !lp.isInteger(j) ? VarType::Continuous
                         : (lo >= 0.0 && hi <= 1.0) ? VarType::Binary
                                                    : VarType::Integer;
    m.add_var(lp.getColName(j), type, lo, hi, lp.getObjCoefficients()[j]);
  }
  const CoinPackedMatrix* rows = lp.getMatrixByRow();
  for (int i = 0; i < lp.getNumRows(); ++i) {
    const CoinShallowPackedVector row = rows->getVector(i);
    std::vector<Term> terms;
    for (int k = 0; k < row.getNumElements(); ++k) terms.push_back(Term{VarId{row.getIndices()[k]}, row.getElements()[k]});
    m.add_row(lp.getRowName(i), terms, from_coin(lp.getRowLower()[i], inf), from_coin(lp.getRowUpper()[i], inf));
  }
  return m;
}

}  // namespace
}  // namespace placesim::scheduler::milp

PLACESIM_MODULE_ENTRY const void* placesim_module_cbc() {
  using namespace placesim::scheduler::milp;
  static const CbcApi api{&search, &warm_start_only, &write_model_file, &read_model_file};
  return &api;
}
