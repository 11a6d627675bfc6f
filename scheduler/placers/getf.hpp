// GETF's intermediate results, exposed so tests can check the LP, the rounding and the
// schedule against hand-worked examples and the approximation bound (see getf.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scheduler/placers/list_schedule.hpp"

namespace placesim::scheduler {

struct Getf {
  std::vector<std::vector<int>> groups;  // devices of equal speed: equal durations for every op
  std::vector<int> group_of;             // per graph node: the group its op was rounded to, -1 for params
  double lp_bound = 0;                   // D*, the LP optimum in seconds: a lower bound on the makespan
  EtfResult etf;                         // ETF with each op restricted to its group
  std::string error;                     // why the LP solve failed (then nothing else is set), or empty
  bool timed_out = false;                // the LP solve failed by running past time_limit_s
};

// Groups, LP, rounding and ETF over default_devices(topo). InputError when an op runs on no
// device; `error` set if the LP solver fails (the LP is always feasible and bounded) or runs
// past `time_limit_s` wall-clock seconds (a guard: the LP of a 100k-op graph takes minutes).
Getf getf_schedule(const Problem& p, std::optional<double> time_limit_s = std::nullopt);

}  // namespace placesim::scheduler
