#include "app/explore/validate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "scheduler/lower/lower.hpp"
#include "sim/core/activity.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/log.hpp"
#include "sim/engine/executor.hpp"
#include "app/explore/runner.hpp"
#include "app/explore/validate_workload.hpp"
#include "sim/trace/trace_file.hpp"

namespace placesim::explore {
namespace {

// The plan simulated and run for real; `v` already holds the placer's outcome.
void measure(ValidateRun& v, const scheduler::Problem& p, const scheduler::Plan& plan, const ValidateOptions& o,
             const std::string& trace_stem) {
  const scheduler::Lowered low = scheduler::lower(p, plan);
  const engine::Trace predicted = engine::simulate(low.graph);
  const backend::Workload work = make_workload(p, plan, low);
  backend::Measurement measured;
  try {
    measured = backend::run_backend(o.backend, low.graph, work, o.run);
  } catch (const InputError& e) {  // the machine cannot run this plan (memory, a GPU task)
    v.result.status = scheduler::RunStatus::Refused;
    v.result.message = e.what();
    return;
  } catch (const std::runtime_error& e) {  // the watchdog, a failed allocation
    v.result.status = scheduler::RunStatus::Error;
    v.result.message = e.what();
    return;
  }
  v.diff = trace::diff_traces(low.graph, predicted, measured.trace);
  v.spread = repeat_spread(measured.makespans_s, to_seconds(measured.trace.makespan));
  if (!trace_stem.empty()) {
    trace::write_trace_file(trace_stem + ".predicted.json", low.graph, predicted);
    trace::write_trace_file(trace_stem + ".measured.json", low.graph, measured.trace);
  }
}

// The plan with its ops on every CPU it computes on using k cores.
scheduler::Plan on_cpu_cores(const scheduler::Problem& p, scheduler::Plan plan, int k) {
  for (int dev : plan.device_of)
    if (dev >= 0 && p.topo->devices[dev].kind == hw::DeviceKind::Cpu) plan.cpu_cores[dev] = k;
  return plan;
}

std::string point_text(const RunResult& r) {
  std::string s;
  for (auto& [axis, value] : r.point) s += fmt::format("{}{}={}", s.empty() ? "" : " ", axis, value);
  return s.empty() ? "-" : s;
}

}  // namespace

RepeatSpread repeat_spread(const std::vector<double>& makespans_s, double median_s) {
  RepeatSpread s;
  s.makespans_s = makespans_s;
  if (makespans_s.empty()) return s;
  const auto [lo, hi] = std::minmax_element(makespans_s.begin(), makespans_s.end());
  s.min_s = *lo;
  s.max_s = *hi;
  s.relative = median_s > 0 ? (s.max_s - s.min_s) / median_s : 0;
  return s;
}

ValidateSet validate_scenario(const Scenario& s, const ValidateOptions& opts) {
  backend::require_backend(opts.backend);
  ValidateSet set;
  set.scenario = s.name;
  set.backend = opts.backend;
  set.scenario_text = s.text;
  set.hardware_text = s.hardware_text;
  // 0 stands for "as placed" when no core counts are asked for.
  const std::vector<int> counts = opts.cpu_cores.empty() ? std::vector<int>{0} : opts.cpu_cores;
  const int total = static_cast<int>(s.points.size() * s.placers.size() * counts.size());
  for (const Point& pt : s.points) {
    const scheduler::Problem prob = build_problem(s, pt);
    for (size_t j = 0; j < s.placers.size(); ++j) {
      const scheduler::PlacerSpec& placer = s.placers[j];
      const Activity placing(fmt::format("point {} {}", pt.index, placer.label));
      const SingleRun placed = run_placer(prob, placer, "");
      for (int k : counts) {
        const Activity measuring(fmt::format("point {} {}{}", pt.index, placer.label,
                                             k > 0 ? fmt::format(" on {} cores", k) : ""));
        log().info("validate: {}", current_activity());
        ValidateRun v;
        v.result = placed.result;
        v.result.point_index = pt.index;
        v.result.point = pt.values;
        if (k > 0) v.result.point.emplace_back("cpu_cores", std::to_string(k));
        if (placed.plan && v.result.status == scheduler::RunStatus::Ok) {
          const std::string stem =
              opts.trace_dir.empty()
                  ? ""
                  : fmt::format("{}/{}-{}{}", opts.trace_dir, pt.index, trace_name(s.placers, j),
                                k > 0 ? fmt::format("-{}cores", k) : "");
          measure(v, prob, k > 0 ? on_cpu_cores(prob, *placed.plan, k) : *placed.plan, opts, stem);
        }
        set.runs.push_back(std::move(v));
        if (opts.progress) opts.progress(static_cast<int>(set.runs.size()), total);
      }
    }
  }
  return set;
}

nlohmann::ordered_json to_json(const ValidateSet& v) {
  nlohmann::ordered_json j;
  j["backend"] = v.backend;
  j["scenario"] = v.scenario;
  j["runs"] = nlohmann::ordered_json::array();
  for (const ValidateRun& r : v.runs) {
    nlohmann::ordered_json run;
    nlohmann::ordered_json point = nlohmann::ordered_json::object();
    for (auto& [axis, value] : r.result.point) point[axis] = value;
    run["point"] = point;
    run["placer"] = r.result.placer;
    run["status"] = scheduler::to_string(r.result.status);
    run["message"] = r.result.message;
    if (r.diff) {
      const nlohmann::ordered_json diff = trace::to_json(*r.diff);
      for (auto it = diff.begin(); it != diff.end(); ++it) run[it.key()] = *it;
      run["repeats"] = {{"makespans_s", r.spread.makespans_s},
                        {"min_s", r.spread.min_s},
                        {"max_s", r.spread.max_s},
                        {"spread", r.spread.relative}};
    }
    j["runs"].push_back(run);
  }
  return j;
}

std::string format_table(const ValidateSet& v) {
  std::string t = fmt::format("{} on backend {}\n{:<28} {:<16} {:>12} {:>12} {:>11} {:>10} {:>10} {:>7} {:>9} {:>9}  {}\n",
                              v.scenario, v.backend, "point", "placer", "predicted ms", "measured ms", "model_error",
                              "fastest ms", "slowest ms", "spread", "task mean", "task p95", "status");
  for (const ValidateRun& r : v.runs) {
    if (!r.diff) {
      t += fmt::format("{:<28} {:<16} {:>12} {:>12} {:>11} {:>10} {:>10} {:>7} {:>9} {:>9}  {} {}\n", point_text(r.result),
                       r.result.placer, "-", "-", "-", "-", "-", "-", "-", "-", scheduler::to_string(r.result.status), r.result.message);
      continue;
    }
    const trace::TraceDiff& d = *r.diff;
    t += fmt::format("{:<28} {:<16} {:>12.3f} {:>12.3f} {:>10.1f}% {:>10.3f} {:>10.3f} {:>6.1f}% {:>8.1f}% {:>8.1f}%  {}\n",
                     point_text(r.result), r.result.placer, d.predicted_s * 1e3, d.measured_s * 1e3, 100 * d.model_error,
                     r.spread.min_s * 1e3, r.spread.max_s * 1e3, 100 * r.spread.relative, 100 * d.mean_abs_error,
                     100 * d.p95_abs_error, scheduler::to_string(r.result.status));
  }
  return t;
}

}  // namespace placesim::explore
