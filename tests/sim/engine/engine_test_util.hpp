// Small builders shared by the engine tests.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/task_graph.hpp"

namespace placesim::engine::test {

inline constexpr TimePs kUs = 1'000'000;       // picoseconds per microsecond
inline constexpr TimePs kS = kPsPerSecond;     // picoseconds per second
inline constexpr double kGBps = 1e9;           // bytes per second in one GB/s

// "prefix" followed by i (built by appending: GCC 12 warns falsely on "x" + std::to_string(i)).
inline std::string numbered(const char* prefix, int i) {
  std::string s = prefix;
  s += std::to_string(i);
  return s;
}

inline TaskId add(TaskGraph& g, const std::string& name, QueueId q, UseList uses,
                  DepList deps = {}, TimePs latency = 0, TaskKind kind = TaskKind::Compute) {
  Task t;
  t.kind = kind;
  t.queue = q;
  t.uses = std::move(uses);
  t.deps = std::move(deps);
  t.latency = latency;
  return g.add_task(name, std::move(t));
}

}  // namespace placesim::engine::test
