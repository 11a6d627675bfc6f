#include "backend/measured_trace.hpp"

#include <algorithm>
#include <numeric>

#include "sim/core/error.hpp"
#include "sim/engine/memory_ledger.hpp"

namespace placesim::backend {

engine::Trace make_trace(const engine::TaskGraph& g, const std::vector<TaskTimes>& times) {
  PLACESIM_ASSERT(times.size() == g.tasks.size(), "one TaskTimes per task");
  engine::Trace t;
  t.tasks.resize(g.tasks.size());
  t.consumed.assign(g.resources.size(), 0.0);
  t.busy_s.assign(g.resources.size(), 0.0);
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    t.tasks[i] = {times[i].start, times[i].start, times[i].end};
    t.makespan = std::max(t.makespan, times[i].end);
    for (const engine::Use& u : g.tasks[i].uses) {
      t.consumed[u.resource] += u.amount;
      t.busy_s[u.resource] += to_seconds(times[i].end - times[i].start);
    }
  }
  // Memory: replay starts and ends in time order (ends first at one instant, as the simulator
  // holds buffers over half-open intervals).
  struct Event {
    TimePs at;
    bool start;
    engine::TaskId task;
  };
  std::vector<Event> events;
  for (size_t i = 0; i < g.tasks.size(); ++i) {
    events.push_back({times[i].start, true, static_cast<engine::TaskId>(i)});
    events.push_back({times[i].end, false, static_cast<engine::TaskId>(i)});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.start != b.start) return !a.start;
    return a.task < b.task;
  });
  engine::MemoryLedger ledger(g);
  for (size_t i = 0; i < events.size(); ++i) {
    if (events[i].start)
      ledger.task_started(events[i].task);
    else
      ledger.task_ended(events[i].task);
    if (i + 1 == events.size() || events[i + 1].at != events[i].at) ledger.end_instant(events[i].at);
  }
  ledger.write(t);
  return t;
}

Measurement median_run(std::vector<engine::Trace> runs) {
  PLACESIM_ASSERT(!runs.empty(), "median of no runs");
  Measurement m;
  std::vector<size_t> idx(runs.size());
  std::iota(idx.begin(), idx.end(), 0);
  for (const engine::Trace& t : runs) m.makespans_s.push_back(to_seconds(t.makespan));
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return runs[a].makespan < runs[b].makespan; });
  m.trace = std::move(runs[idx[(runs.size() - 1) / 2]]);
  return m;
}

}  // namespace placesim::backend
