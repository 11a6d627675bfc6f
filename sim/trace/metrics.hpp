// Summary metrics of one run of a TaskGraph (docs/results.md): makespan, busy time and
// utilisation per resource (device, link direction, ...), amount consumed per resource (bytes for
// a link), busy time per queue, and peak memory per pool.
//
// Works on predicted and measured traces alike. An executor that cannot observe consumption
// (a real backend) may leave Trace::consumed, busy_s and peak_memory empty; they are then derived
// from the TaskGraph (every finished task consumed all of its uses' amounts; busy = consumed /
// capacity) and from the memory series (peak = largest sample).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace {

struct ResourceMetrics {
  std::string name;
  double consumed = 0;     // amount consumed over the run (bytes for a link)
  double busy_s = 0;       // consumed / capacity: seconds of full use
  double utilisation = 0;  // busy_s / makespan_s; 0 when the makespan is 0
};

struct QueueMetrics {
  std::string name;
  int tasks = 0;           // tasks that ran on the queue
  double busy_s = 0;       // time covered by [start, end) of its tasks (latency phases included)
  double utilisation = 0;  // busy_s / makespan_s; 0 when the makespan is 0
};

struct PoolMetrics {
  std::string name;
  double capacity = 0;    // bytes (infinity when unbounded)
  double peak_bytes = 0;
};

struct Metrics {
  double makespan_s = 0;
  int tasks = 0;
  std::vector<ResourceMetrics> resources;  // indexed by ResourceId
  std::vector<QueueMetrics> queues;        // indexed by QueueId
  std::vector<PoolMetrics> pools;          // indexed by PoolId
};

// Per queue, the length of the union of its tasks' [start, end) intervals, in picoseconds.
// Tasks that never started (start < 0) are left out.
std::vector<TimePs> queue_busy_ps(const engine::TaskGraph& g, const engine::Trace& t);

Metrics compute_metrics(const engine::TaskGraph& g, const engine::Trace& t);

// {"makespan_s", "tasks", "resources": [{"name", "consumed", "busy_s", "utilisation"}...],
//  "queues": [{"name", "tasks", "busy_s", "utilisation"}...], "pools": [{"name", "capacity",
//  "peak_bytes"}...]}: keys in this order, lists in id order, so the text is deterministic.
// An unbounded pool capacity is written as null.
nlohmann::ordered_json to_json(const Metrics& m);

}  // namespace placesim::trace
