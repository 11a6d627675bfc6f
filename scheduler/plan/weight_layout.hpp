// Where a plan keeps each weight: for every parameter of the plan's sliced graph (a partitioned
// weight's slices are `param#0`, `param#1`, ...: scheduler/plan/slices.hpp), the devices of the
// ops that read it and its bytes. Two plans of graphs with the same weights keep one layout when
// these agree: a whole generation (models/generation.hpp) compares its prefill and decode plans,
// since a server keeps one weight layout for both.
#pragma once

#include <map>
#include <set>
#include <string>

#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"

namespace placesim::scheduler {

struct WeightPlace {
  std::set<int> devices;  // topology indices of the devices that read it
  double bytes = 0;       // of this parameter (slice)
  bool operator==(const WeightPlace&) const = default;
};
using WeightLayout = std::map<std::string, WeightPlace>;

// g: the graph `plan` was made for.
WeightLayout weight_layout(const models::Graph& g, const Plan& plan);

// The first weight (by name) that the layouts keep differently, "" when they agree.
std::string first_difference(const WeightLayout& a, const WeightLayout& b);

}  // namespace placesim::scheduler
