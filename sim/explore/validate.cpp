#include "sim/core/file_io.hpp"
#include "sim/explore/validate.hpp"

#include <cmath>
#include <fmt/format.h>

#include "scheduler/lower.hpp"
#include "sim/core/log.hpp"
#include "sim/engine/executor.hpp"
#include "sim/explore/runner.hpp"
#include "sim/explore/validate_workload.hpp"
#include "sim/trace/chrome_trace.hpp"

namespace placesim::explore {
namespace {

ValidateRun validate_one(const scheduler::Problem& p, const scheduler::PlacerSpec& placer, const ValidateOptions& o,
                         const std::string& trace_stem) {
  ValidateRun v;
  SingleRun sr = run_placer(p, placer, "");
  v.result = std::move(sr.result);
  if (!sr.plan || v.result.status != scheduler::RunStatus::Ok) return v;
  const scheduler::Lowered low = scheduler::lower(p, *sr.plan);
  const engine::Trace predicted = engine::simulate(low.graph);
  const backend::Workload work = make_workload(p, *sr.plan, low);
  engine::Trace measured;
  try {
    measured = backend::run_backend(o.backend, low.graph, work, o.run);
  } catch (const InputError& e) {  // the machine cannot run this plan (memory, a GPU task)
    v.result.status = scheduler::RunStatus::Refused;
    v.result.message = e.what();
    return v;
  } catch (const std::runtime_error& e) {  // the watchdog, a failed allocation
    v.result.status = scheduler::RunStatus::Error;
    v.result.message = e.what();
    return v;
  }
  v.diff = trace::diff_traces(low.graph, predicted, measured);
  if (!trace_stem.empty()) {
    trace::write_chrome_trace_file(trace_stem + ".predicted.json", low.graph, predicted);
    trace::write_chrome_trace_file(trace_stem + ".measured.json", low.graph, measured);
  }
  return v;
}

std::string point_text(const RunResult& r) {
  std::string s;
  for (auto& [axis, value] : r.point) s += fmt::format("{}{}={}", s.empty() ? "" : " ", axis, value);
  return s.empty() ? "-" : s;
}

}  // namespace

ValidateSet validate_scenario(const Scenario& s, const ValidateOptions& opts) {
  backend::require_backend(opts.backend);
  ValidateSet set;
  set.scenario = s.name;
  set.backend = opts.backend;
  set.scenario_text = s.text;
  set.hardware_text = s.hardware_text;
  for (const Point& pt : s.points) {
    const scheduler::Problem prob = build_problem(s, pt);
    for (const scheduler::PlacerSpec& placer : s.placers) {
      log().info("validate: point {} placer {}", pt.index, placer.label);
      const std::string stem = opts.trace_dir.empty()
                                   ? ""
                                   : fmt::format("{}/{}-{}", opts.trace_dir, pt.index, file_safe_name(placer.label));
      ValidateRun v = validate_one(prob, placer, opts, stem);
      v.result.point_index = pt.index;
      v.result.point = pt.values;
      set.runs.push_back(std::move(v));
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
    }
    j["runs"].push_back(run);
  }
  return j;
}

std::string format_table(const ValidateSet& v) {
  std::string t = fmt::format("{} on backend {}\n{:<28} {:<16} {:>12} {:>12} {:>8} {:>9} {:>9}  {}\n", v.scenario, v.backend,
                              "point", "placer", "predicted ms", "measured ms", "error", "task mean", "task p95", "status");
  for (const ValidateRun& r : v.runs) {
    if (!r.diff) {
      t += fmt::format("{:<28} {:<16} {:>12} {:>12} {:>8} {:>9} {:>9}  {} {}\n", point_text(r.result), r.result.placer, "-",
                       "-", "-", "-", "-", scheduler::to_string(r.result.status), r.result.message);
      continue;
    }
    const trace::TraceDiff& d = *r.diff;
    t += fmt::format("{:<28} {:<16} {:>12.3f} {:>12.3f} {:>7.1f}% {:>8.1f}% {:>8.1f}%  {}\n", point_text(r.result),
                     r.result.placer, d.predicted_s * 1e3, d.measured_s * 1e3, 100 * d.error, 100 * d.mean_abs_error,
                     100 * d.p95_abs_error, scheduler::to_string(r.result.status));
  }
  return t;
}

}  // namespace placesim::explore
