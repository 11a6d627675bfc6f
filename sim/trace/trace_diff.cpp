#include "sim/trace/trace_diff.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/error.hpp"

namespace placesim::trace {

using engine::TaskGraph;
using engine::Trace;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TimePs duration(const engine::TaskRecord& r) { return r.end - r.start; }

// (predicted - measured) / measured, from exact integer differences.
double model_error(TimePs measured, TimePs predicted) {
  return static_cast<double>(predicted - measured) / static_cast<double>(measured);
}

// |model_error| descending, then TaskId ascending: a total order, so the result is deterministic.
bool worse(const TaskError& a, const TaskError& b) {
  const double ea = std::abs(a.model_error);
  const double eb = std::abs(b.model_error);
  if (ea != eb) return ea > eb;
  return a.task < b.task;
}

}  // namespace

TraceDiff diff_traces(const TaskGraph& g, const Trace& predicted, const Trace& measured, std::size_t worst_n) {
  PLACESIM_ASSERT(predicted.tasks.size() == g.tasks.size(), "predicted trace is not of this task graph");
  PLACESIM_ASSERT(measured.tasks.size() == g.tasks.size(), "measured trace is not of this task graph");
  TraceDiff d;
  d.predicted_s = to_seconds(predicted.makespan);
  d.measured_s = to_seconds(measured.makespan);
  d.model_error = measured.makespan > 0 ? model_error(measured.makespan, predicted.makespan) : kNaN;

  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const TimePs m = duration(measured.tasks[i]);
    if (m <= 0 || g.tasks[i].kind == engine::TaskKind::Launch) {
      ++d.skipped;
      continue;
    }
    const TimePs p = duration(predicted.tasks[i]);
    d.tasks.push_back(
        {static_cast<engine::TaskId>(i), std::string(g.name(static_cast<engine::TaskId>(i))), to_seconds(p), to_seconds(m), model_error(m, p)});
  }

  if (d.tasks.empty()) {
    d.mean_abs_error = kNaN;
    d.p95_abs_error = kNaN;
    return d;
  }
  std::vector<double> abs_errors;
  abs_errors.reserve(d.tasks.size());
  double sum = 0;
  for (const TaskError& e : d.tasks) {
    abs_errors.push_back(std::abs(e.model_error));
    sum += abs_errors.back();
  }
  d.mean_abs_error = sum / static_cast<double>(abs_errors.size());
  std::sort(abs_errors.begin(), abs_errors.end());
  // Nearest rank: the ceil(0.95 n)-th smallest, computed in integers to avoid 0.95 * n rounding.
  const std::size_t rank = (95 * abs_errors.size() + 99) / 100;
  d.p95_abs_error = abs_errors[rank - 1];

  d.worst = d.tasks;
  const std::size_t n = std::min(worst_n, d.worst.size());
  std::partial_sort(d.worst.begin(), d.worst.begin() + static_cast<std::ptrdiff_t>(n), d.worst.end(), worse);
  d.worst.resize(n);
  return d;
}

nlohmann::ordered_json to_json(const TraceDiff& d) {
  nlohmann::ordered_json j;
  j["predicted_s"] = d.predicted_s;
  j["measured_s"] = d.measured_s;
  j["model_error"] = d.model_error;
  j["task_error"] = {{"mean", d.mean_abs_error},
                     {"p95", d.p95_abs_error},
                     {"compared", d.tasks.size()},
                     {"skipped", d.skipped}};
  j["worst_tasks"] = nlohmann::ordered_json::array();
  for (const TaskError& e : d.worst) {
    j["worst_tasks"].push_back({{"task", e.task},
                                {"name", e.name},
                                {"predicted_s", e.predicted_s},
                                {"measured_s", e.measured_s},
                                {"model_error", e.model_error}});
  }
  return j;
}

}  // namespace placesim::trace
