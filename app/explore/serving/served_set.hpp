// `placesim serve`'s points as a results set (results files, compare, plot): one run per point and
// placer, its serving figures in RunResult::serving (docs/formats.md, "Results files").
#pragma once

#include <string>
#include <vector>

#include "app/explore/run_result.hpp"
#include "app/explore/scenario.hpp"
#include "app/explore/serving/serve_point.hpp"

namespace placesim::explore {

// served[i]: serve_point's runs at s.points[i]. A placer that did not serve keeps its status
// (a bound is ok with no figures, as it has no plan) and its reason as the run's message.
RunSet served_set(const Scenario& s, const std::vector<std::vector<ServedRun>>& served, const std::string& command);

}  // namespace placesim::explore
