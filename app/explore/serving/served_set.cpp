#include "app/explore/serving/served_set.hpp"

#include "app/explore/runner.hpp"

namespace placesim::explore {

RunSet served_set(const Scenario& s, const std::vector<std::vector<ServedRun>>& served, const std::string& command) {
  RunSet set = empty_set(s, command);
  for (size_t i = 0; i < served.size(); ++i)
    for (const ServedRun& r : served[i]) {
      RunResult run;
      run.point_index = s.points[i].index;
      run.point = s.points[i].values;
      run.placer = r.placer;
      run.seed = s.seed;
      run.message = r.message;
      if (r.status == "ok") run.serving = static_cast<const ServingResult&>(r);
      else if (r.status != "bound") run.status = scheduler::parse_run_status(r.status);
      set.runs.push_back(std::move(run));
    }
  return set;
}

}  // namespace placesim::explore
