// score_plan(): a plan's outcome under the execution contract, the one way the runner, `placesim
// simulate` and the MILP placers' warm starts score a plan: lower(p, plan), simulate it in the
// engine, and check every device's peak memory against its capacity.
//
// A plan that cannot be lowered or simulated throws as lower() and the engine do (InputError for
// a plan that breaks a rule); each caller decides what that means (the runner: that placer's
// error; a warm start: not a candidate; `simulate`: the user's error).
#pragma once

#include <string>

#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"
#include "sim/engine/executor.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::scheduler {

struct PlanScore {
  Lowered lowered;
  engine::Trace trace;
  MemoryCheck memory;
  bool fits() const { return memory.over_device.empty(); }
  double makespan_s() const;
  // "" when the plan fits, else "peak memory <bytes> on <device> exceeds its <capacity>".
  std::string memory_message() const;
};

// How the engine runs the lowered graph: each resource's use over time kept (for a Chrome
// trace), progress told (engine::SimOptions).
PlanScore score_plan(const Problem& p, const Plan& plan, const engine::SimOptions& so = {});

}  // namespace placesim::scheduler
