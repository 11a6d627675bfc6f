// Small results files made by hand for the compare and plot tests: every figure in them is
// chosen, so what the commands print can be worked out on paper.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/explore/results_h5.hpp"

namespace placesim::testing {

inline explore::RunResult run_of(int point_index, std::vector<std::pair<std::string, std::string>> point,
                                  std::string placer, std::optional<double> makespan_s,
                                  std::optional<double> predicted_s = std::nullopt,
                                  scheduler::RunStatus status = scheduler::RunStatus::Ok,
                                  std::map<std::string, double> peak_mem = {}, double placement_s = 0) {
  explore::RunResult r;
  r.point_index = point_index;
  r.point = std::move(point);
  r.placer = std::move(placer);
  r.makespan_s = makespan_s;
  r.predicted_s = predicted_s ? predicted_s : makespan_s;
  r.status = status;
  r.peak_mem_bytes = std::move(peak_mem);
  r.placement_s = placement_s;
  return r;
}

inline explore::RunSet set_of(std::string scenario, std::string baseline, std::vector<std::string> axes,
                              std::vector<explore::RunResult> runs) {
  explore::RunSet s;
  s.scenario = std::move(scenario);
  s.baseline = std::move(baseline);
  s.axes = std::move(axes);
  s.runs = std::move(runs);
  return s;
}

}  // namespace placesim::testing
