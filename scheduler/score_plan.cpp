#include "scheduler/score_plan.hpp"

#include <fmt/format.h>

#include "sim/core/log.hpp"
#include "sim/core/units.hpp"
#include "sim/engine/executor.hpp"

namespace placesim::scheduler {

double PlanScore::makespan_s() const { return to_seconds(trace.makespan); }

std::string PlanScore::memory_message() const {
  if (fits()) return "";
  return fmt::format("peak memory {} on {} exceeds its {}", units::format_bytes(memory.over_bytes), memory.over_device,
                     units::format_bytes(memory.capacity));
}

namespace {

// Where a plan file gave a lowered task: its queue entry, or the collective whose step it is.
SourceLoc task_origin(const Plan& plan, const Lowered& l, engine::TaskId task) {
  for (size_t k = 0; k < l.collective_tasks.size(); ++k)
    if (task >= l.collective_tasks[k].first && task < l.collective_tasks[k].second) return plan.origin.collective(k);
  return plan.origin.task(task);
}

}  // namespace

PlanScore score_plan(const Problem& p, const Plan& plan, const engine::SimOptions& so) {
  PlanScore s;
  {
    const TimedStep step("lowering the plan to tasks");
    s.lowered = lower(p, plan);
  }
  try {
    const TimedStep step("simulating");
    s.trace = engine::simulate(s.lowered.graph, so);
  } catch (const engine::TaskError& e) {  // at the task's entry in the plan file, when it has one
    throw InputError(task_origin(plan, s.lowered, e.task), e.detail());
  }
  s.memory = check_memory(p, s.lowered, s.trace);
  return s;
}

}  // namespace placesim::scheduler
