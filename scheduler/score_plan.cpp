#include "scheduler/score_plan.hpp"

#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "sim/engine/executor.hpp"

namespace placesim::scheduler {

double PlanScore::makespan_s() const { return to_seconds(trace.makespan); }

std::string PlanScore::memory_message() const {
  if (fits()) return "";
  return fmt::format("peak memory {} on {} exceeds its {}", units::format_bytes(memory.over_bytes), memory.over_device,
                     units::format_bytes(memory.capacity));
}

PlanScore score_plan(const Problem& p, const Plan& plan, const engine::SimOptions& so) {
  PlanScore s;
  s.lowered = lower(p, plan);
  try {
    s.trace = engine::simulate(s.lowered.graph, so);
  } catch (const engine::TaskError& e) {  // at the task's entry in the plan file, when it has one
    throw InputError(plan.origin.task(e.task), e.detail());
  }
  s.memory = check_memory(p, s.lowered, s.trace);
  return s;
}

}  // namespace placesim::scheduler
