#include "sim/trace/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/core/error.hpp"

namespace placesim::trace {

using engine::TaskGraph;
using engine::Trace;

namespace {

double ratio_or_zero(double num, double den) { return den > 0 ? num / den : 0.0; }

// Amount consumed per resource: the trace's when it recorded one, else every finished task's uses.
std::vector<double> consumed_per_resource(const TaskGraph& g, const Trace& t) {
  if (t.consumed.size() == g.resources.size()) return t.consumed;
  std::vector<double> consumed(g.resources.size(), 0.0);
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    if (t.tasks[i].end < 0) continue;
    for (const engine::Use& u : g.tasks[i].uses) consumed[u.resource] += u.amount;
  }
  return consumed;
}

double peak_of(const std::vector<engine::Sample>& series) {
  double peak = 0;
  for (const engine::Sample& s : series) peak = std::max(peak, s.value);
  return peak;
}

}  // namespace

std::vector<TimePs> queue_busy_ps(const TaskGraph& g, const Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  std::vector<std::vector<std::pair<TimePs, TimePs>>> spans(g.queues.size());
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const engine::TaskRecord& r = t.tasks[i];
    if (r.start < 0) continue;
    spans[g.tasks[i].queue].emplace_back(r.start, std::max(r.start, r.end));
  }
  std::vector<TimePs> busy(g.queues.size(), 0);
  for (std::size_t q = 0; q < spans.size(); ++q) {
    std::sort(spans[q].begin(), spans[q].end());
    TimePs covered_to = 0;  // end of the union so far; intervals start at >= 0
    for (const auto& [start, end] : spans[q]) {
      const TimePs from = std::max(start, covered_to);
      if (end > from) {
        busy[q] += end - from;
        covered_to = end;
      }
    }
  }
  return busy;
}

Metrics compute_metrics(const TaskGraph& g, const Trace& t) {
  PLACESIM_ASSERT(t.tasks.size() == g.tasks.size(), "trace and task graph differ in task count");
  Metrics m;
  m.makespan_s = to_seconds(t.makespan);
  m.tasks = static_cast<int>(g.tasks.size());

  const std::vector<double> consumed = consumed_per_resource(g, t);
  const bool have_busy = t.busy_s.size() == g.resources.size();
  for (std::size_t r = 0; r < g.resources.size(); ++r) {
    ResourceMetrics rm;
    rm.name = g.resources[r].name;
    rm.consumed = consumed[r];
    rm.busy_s = have_busy ? t.busy_s[r] : consumed[r] / g.resources[r].capacity;
    rm.utilisation = ratio_or_zero(rm.busy_s, m.makespan_s);
    m.resources.push_back(std::move(rm));
  }

  const std::vector<TimePs> busy = queue_busy_ps(g, t);
  m.queues.resize(g.queues.size());
  for (std::size_t q = 0; q < g.queues.size(); ++q) {
    m.queues[q].name = g.queues[q];
    m.queues[q].busy_s = to_seconds(busy[q]);
    m.queues[q].utilisation = ratio_or_zero(m.queues[q].busy_s, m.makespan_s);
  }
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    if (t.tasks[i].start >= 0) ++m.queues[g.tasks[i].queue].tasks;
  }

  const bool have_peaks = t.peak_memory.size() == g.pools.size();
  for (std::size_t p = 0; p < g.pools.size(); ++p) {
    PoolMetrics pm;
    pm.name = g.pools[p].name;
    pm.capacity = g.pools[p].capacity;
    if (have_peaks) {
      pm.peak_bytes = t.peak_memory[p];
    } else if (p < t.memory.size()) {
      pm.peak_bytes = peak_of(t.memory[p]);
    }
    m.pools.push_back(std::move(pm));
  }
  return m;
}

nlohmann::ordered_json to_json(const Metrics& m) {
  nlohmann::ordered_json j;
  j["makespan_s"] = m.makespan_s;
  j["tasks"] = m.tasks;
  j["resources"] = nlohmann::ordered_json::array();
  for (const ResourceMetrics& r : m.resources) {
    j["resources"].push_back(
        {{"name", r.name}, {"consumed", r.consumed}, {"busy_s", r.busy_s}, {"utilisation", r.utilisation}});
  }
  j["queues"] = nlohmann::ordered_json::array();
  for (const QueueMetrics& q : m.queues) {
    j["queues"].push_back(
        {{"name", q.name}, {"tasks", q.tasks}, {"busy_s", q.busy_s}, {"utilisation", q.utilisation}});
  }
  j["pools"] = nlohmann::ordered_json::array();
  for (const PoolMetrics& p : m.pools) {
    nlohmann::ordered_json capacity = nullptr;
    if (std::isfinite(p.capacity)) capacity = p.capacity;
    j["pools"].push_back({{"name", p.name}, {"capacity", capacity}, {"peak_bytes", p.peak_bytes}});
  }
  return j;
}

}  // namespace placesim::trace
