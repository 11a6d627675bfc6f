// Runs every placer at every sweep point of a scenario: place, lower, simulate, check memory.
// A point whose model is a whole generation (phase: generate) runs its prefill and decode steps
// as app/explore/generation_run.hpp says.
//
// Points run in parallel on local threads (and, under MPI, on other ranks: app/explore/mpi);
// each finished point's runs are handed on whole, and results are stored by index, so the
// output does not depend on the number of threads or ranks, or on timing. A placer's bad option
// (InputError) stops the whole run; any other failure of one placer is that run's status "error"
// and the rest go on.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/explore/run_result.hpp"
#include "app/explore/scenario.hpp"
#include "sim/trace/trace_file.hpp"

namespace placesim::explore {

// Hands out the points of one sweep and takes what they give; the local threads draw from it,
// and so does RunOptions::serve (the MPI rank 0, for the other ranks).
class PointQueue {
 public:
  virtual ~PointQueue() = default;
  // The next point to run (a position in Scenario::points); none once all are handed out, the
  // run is stopped or a point failed.
  virtual std::optional<size_t> next() = 0;
  // A point's runs (run_point), in any order: serialised here.
  virtual void finished(std::vector<RunResult> runs) = 0;
  // A point that threw: the run stops, and run_scenario rethrows the first failure.
  virtual void failed(std::exception_ptr failure) = 0;
};

// Where the traces of simulated runs go, in which format, and what of them they keep
// (docs/results.md, "Traces"): a trace per simulated run in `dir` (a generation: two), none when
// it is empty.
struct TraceRequest {
  std::string dir;
  trace::TraceFormat format = trace::TraceFormat::Json;
  trace::TraceFilter filter;
};

struct RunOptions {
  int jobs = 1;
  TraceRequest trace;
  // Called after each finished point (serialised): done, total (of the points this run runs).
  std::function<void(int, int)> progress;
  // Called with each finished point's runs, speed-ups filled, serialised, in finishing order.
  std::function<void(std::vector<RunResult>)> on_point;
  std::set<int> skip;                     // Point::index of points already done (--resume)
  const std::atomic<bool>* stop = nullptr;  // once true, no further point starts (SIGINT)
  // When set, run on the calling thread beside `jobs` worker threads, until it returns.
  std::function<void(PointQueue&)> serve;
};

// The runs of the points it ran (all but `skip`; fewer when stopped), in point order.
RunSet run_scenario(const Scenario& s, const RunOptions& opts);

// A set of `s`'s runs with none in it yet: the scenario's name, texts, baseline and axes, and
// the command that ran it.
RunSet empty_set(const Scenario& s, const std::string& command = "");

// The name a placer's trace files take: its label made safe for a file name, and its place in the
// list (-1, -2, ...) appended when that name is another placer's too ("a{x=1}" and "a{x_1}"), so
// that no trace overwrites another.
std::string trace_name(const std::vector<scheduler::PlacerSpec>& placers, size_t k);

// Every placer of `s` at point `pt`, in placer order, speed-ups filled.
std::vector<RunResult> run_point(const Scenario& s, const Point& pt, const TraceRequest& trace);

// One placer on one problem (also used by `placesim plan` and `simulate`-like tools).
struct SingleRun {
  RunResult result;
  std::optional<scheduler::Plan> plan;
};
// trace_path: a trace of the run written there (in the format its name asks for, trace_file.hpp),
// kept by `filter`, when not empty.
SingleRun run_placer(const scheduler::Problem& p, const scheduler::PlacerSpec& placer, const std::string& trace_path,
                     const trace::TraceFilter& filter = {});

// baseline makespan / makespan, per point, for runs with status ok.
void fill_speedups(RunSet& set);

}  // namespace placesim::explore
