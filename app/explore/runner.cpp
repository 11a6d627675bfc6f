#include "sim/core/file_io.hpp"
#include "app/explore/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <optional>
#include <thread>

#include "scheduler/score_plan.hpp"
#include "sim/core/activity.hpp"
#include "sim/core/stop_request.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/generation_run.hpp"
#include "app/explore/report.hpp"
#include "sim/trace/trace_file.hpp"

namespace placesim::explore {

SingleRun run_placer(const scheduler::Problem& p, const scheduler::PlacerSpec& placer, const std::string& trace_path,
                     const trace::TraceFilter& filter) {
  SingleRun out;
  RunResult& r = out.result;
  r.placer = placer.label;
  r.seed = p.seed;
  const auto t0 = std::chrono::steady_clock::now();
  scheduler::PlacerResult pr;
  try {
    pr = placer.placer->place(p);
  } catch (const InputError& e) {
    throw scheduler::located(placer, e);
  } catch (const std::bad_alloc&) {  // not this placer's failure: the sweep ends (exit 3)
    throw;
  } catch (const std::exception& e) {
    r.status = scheduler::RunStatus::Error;
    r.message = e.what();
    return out;
  }
  r.placement_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // A search cut short while a stop was requested (Ctrl-C) is the stop's doing, not its limit's.
  if (pr.status == scheduler::RunStatus::Limit && stop_requested()) pr.status = scheduler::RunStatus::Interrupted;
  r.status = pr.status;
  r.message = pr.message;
  r.choices = pr.choices;
  r.predicted_s = pr.predicted_s;
  r.gap = pr.gap;
  r.milp = pr.milp;
  if (!pr.plan) return out;

  // A plan the placer made itself that cannot be lowered or run is that placer's failure.
  scheduler::PlanScore score;
  // The trace is written as the run goes (its usage samples are never all in memory). Opened
  // before the run: a path that cannot be written is the user's error, not the placer's.
  std::optional<trace::TraceFile> trace_file;
  if (!trace_path.empty()) trace_file.emplace(trace_path, filter);
  try {
    engine::SimOptions so;
    if (trace_file) {
      so.record_usage = true;
      so.usage_sink = &*trace_file;
    }
    score = scheduler::score_plan(p, *pr.plan, so);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    r.status = scheduler::RunStatus::Error;
    r.message = e.what();
    return out;
  }
  for (auto& [dev, bytes] : score.memory.peak) r.peak_mem_bytes[dev] = bytes;
  r.comm_bytes = scheduler::comm_bytes(*p.topo, score.lowered.graph, score.trace);
  if (!score.fits()) {
    r.status = scheduler::RunStatus::Infeasible;
    r.message = score.memory_message();
  } else if (r.status == scheduler::RunStatus::Ok || r.status == scheduler::RunStatus::Limit ||
             r.status == scheduler::RunStatus::Interrupted) {
    r.makespan_s = score.makespan_s();
  }
  if (trace_file) trace_file->finish(score.lowered.graph, score.trace);
  out.plan = std::move(pr.plan);
  return out;
}

void fill_speedups(RunSet& set) {
  if (set.baseline.empty()) return;
  const Comparison c = compare(set, "", Metric::Makespan);
  std::map<int, size_t> row;  // point index -> row, in order of first appearance as compare() does
  for (const RunResult& r : set.runs) row.emplace(r.point_index, row.size());
  for (RunResult& r : set.runs) {
    const size_t k = std::find(c.placers.begin(), c.placers.end(), r.placer) - c.placers.begin();
    r.speedup = c.rows[row[r.point_index]].speedup[k];
  }
}

RunSet empty_set(const Scenario& s, const std::string& command) {
  RunSet set;
  set.scenario = s.name;
  set.scenario_text = s.text;
  set.hardware_text = s.hardware_text;
  set.baseline = s.baseline;
  set.axes = s.axes;
  set.axis_numeric = numeric_axes(s);
  set.command = command;
  return set;
}

std::string trace_name(const std::vector<scheduler::PlacerSpec>& placers, size_t k) {
  const std::string name = file_safe_name(placers[k].label);
  for (size_t j = 0; j < placers.size(); ++j)
    if (j != k && file_safe_name(placers[j].label) == name) return fmt::format("{}-{}", name, k + 1);
  return name;
}

std::vector<RunResult> run_point(const Scenario& s, const Point& pt, const TraceRequest& trace) {
  std::optional<models::Generation> gen = point_generation(s, pt);
  const scheduler::Problem prob = gen ? build_problem(s, pt, gen->prefill) : build_problem(s, pt);
  RunSet point;  // this point alone: speed-ups compare runs of one point
  point.baseline = s.baseline;
  for (size_t k = 0; k < s.placers.size(); ++k) {
    const scheduler::PlacerSpec& placer = s.placers[k];
    const Activity doing(fmt::format("point {} {}", pt.index, placer.label));  // what progress shows as running
    std::string trace_stem;
    if (!trace.dir.empty()) trace_stem = fmt::format("{}/{}-{}", trace.dir, pt.index, trace_name(s.placers, k));
    RunResult r = gen ? run_generation(prob, *gen, placer, trace_stem, trace.format, trace.filter)
                      : run_placer(prob, placer, trace_stem.empty() ? "" : trace_stem + trace::extension_of(trace.format), trace.filter).result;
    r.point_index = pt.index;
    r.point = pt.values;
    point.runs.push_back(std::move(r));
  }
  fill_speedups(point);
  return std::move(point.runs);
}

namespace {

// The points of one run_scenario call: handed out in order, their runs stored by position.
class Sweep final : public PointQueue {
 public:
  Sweep(const Scenario& s, const RunOptions& opts) : opts_(opts) {
    for (size_t i = 0; i < s.points.size(); ++i)
      if (!opts.skip.count(s.points[i].index)) todo_.push_back(i);
    runs_.resize(s.points.size());
    if (opts_.progress) opts_.progress(0, static_cast<int>(todo_.size()));  // a resumed sweep runs fewer
  }

  std::optional<size_t> next() override {
    if (stopped_ || (opts_.stop && *opts_.stop)) return std::nullopt;
    const size_t k = next_++;
    if (k >= todo_.size()) return std::nullopt;
    return todo_[k];
  }

  void finished(std::vector<RunResult> runs) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (failure_ || runs.empty()) return;
    if (opts_.on_point) opts_.on_point(runs);
    runs_[static_cast<size_t>(runs.front().point_index)] = std::move(runs);  // Point::index: its position
    if (opts_.progress) opts_.progress(++done_, static_cast<int>(todo_.size()));
  }

  void failed(std::exception_ptr failure) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!failure_) failure_ = failure;
    stopped_ = true;
  }

  RunSet result(const Scenario& s) {
    if (failure_) std::rethrow_exception(failure_);
    RunSet set = empty_set(s);
    for (std::vector<RunResult>& point : runs_)
      for (RunResult& r : point) set.runs.push_back(std::move(r));
    return set;
  }

 private:
  const RunOptions& opts_;
  std::vector<size_t> todo_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> stopped_{false};
  std::mutex mu_;
  std::exception_ptr failure_;
  int done_ = 0;
  std::vector<std::vector<RunResult>> runs_;  // per position in Scenario::points
};

}  // namespace

RunSet run_scenario(const Scenario& s, const RunOptions& opts) {
  Sweep sweep(s, opts);
  auto worker = [&] {
    while (const std::optional<size_t> i = sweep.next()) {
      try {
        sweep.finished(run_point(s, s.points[*i], opts.trace));
      } catch (...) {
        sweep.failed(std::current_exception());
      }
    }
  };
  const int jobs = std::max(1, std::min<int>(opts.jobs, static_cast<int>(s.points.size())));
  std::vector<std::thread> threads;
  for (int j = opts.serve ? 0 : 1; j < jobs; ++j) threads.emplace_back(worker);
  if (opts.serve) {
    try {
      opts.serve(sweep);
    } catch (...) {
      sweep.failed(std::current_exception());
    }
  } else {
    worker();
  }
  for (auto& t : threads) t.join();
  return sweep.result(s);
}

}  // namespace placesim::explore
