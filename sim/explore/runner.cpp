#include "sim/core/file_io.hpp"
#include "sim/explore/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <fmt/format.h>
#include <mutex>
#include <thread>

#include "scheduler/score_plan.hpp"
#include "sim/core/activity.hpp"
#include "sim/explore/generation_run.hpp"
#include "sim/explore/report.hpp"
#include "sim/trace/chrome_trace.hpp"

namespace placesim::explore {

SingleRun run_placer(const scheduler::Problem& p, const scheduler::PlacerSpec& placer, const std::string& trace_path) {
  SingleRun out;
  RunResult& r = out.result;
  r.placer = placer.label;
  r.seed = p.seed;
  const auto t0 = std::chrono::steady_clock::now();
  scheduler::PlacerResult pr;
  try {
    pr = placer.placer->place(p);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    r.status = scheduler::RunStatus::Error;
    r.message = e.what();
    return out;
  }
  r.placement_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.status = pr.status;
  r.message = pr.message;
  r.choices = pr.choices;
  r.predicted_s = pr.predicted_s;
  r.gap = pr.gap;
  r.milp = pr.milp;
  if (!pr.plan) return out;

  // A plan the placer made itself that cannot be lowered or run is that placer's failure.
  scheduler::PlanScore score;
  try {
    score = scheduler::score_plan(p, *pr.plan, !trace_path.empty());
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
  } else if (r.status == scheduler::RunStatus::Ok || r.status == scheduler::RunStatus::Timeout) {
    r.makespan_s = score.makespan_s();
  }
  if (!trace_path.empty()) trace::write_chrome_trace_file(trace_path, score.lowered.graph, score.trace);
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

RunSet run_scenario(const Scenario& s, const RunOptions& opts) {
  RunSet set;
  set.scenario = s.name;
  set.scenario_text = s.text;
  set.hardware_text = s.hardware_text;
  set.baseline = s.baseline;
  set.axes = s.axes;
  const size_t np = s.points.size(), nl = s.placers.size();
  set.runs.resize(np * nl);

  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::exception_ptr failure;
  int done = 0;
  auto worker = [&] {
    for (size_t i; !stop && (i = next++) < np;) {
      try {
        const Point& pt = s.points[i];
        std::optional<models::Generation> gen = point_generation(s, pt);
        const scheduler::Problem prob = gen ? build_problem(s, pt, gen->prefill) : build_problem(s, pt);
        for (size_t k = 0; k < nl; ++k) {
          const Activity doing(fmt::format("point {} {}", pt.index, s.placers[k].label));
          std::string trace_stem;
          if (!opts.trace_dir.empty())
            trace_stem = fmt::format("{}/{}-{}", opts.trace_dir, pt.index, file_safe_name(s.placers[k].label));
          RunResult r = gen ? run_generation(prob, *gen, s.placers[k], trace_stem)
                            : run_placer(prob, s.placers[k], trace_stem.empty() ? "" : trace_stem + ".json").result;
          r.point_index = pt.index;
          r.point = pt.values;
          set.runs[i * nl + k] = std::move(r);
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
      std::lock_guard<std::mutex> lock(mu);
      if (opts.progress && !stop) opts.progress(++done, static_cast<int>(np));
    }
  };
  const int jobs = std::max(1, std::min<int>(opts.jobs, static_cast<int>(np)));
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  fill_speedups(set);
  return set;
}

}  // namespace placesim::explore
