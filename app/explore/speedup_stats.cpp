#include "app/explore/speedup_stats.hpp"

#include <algorithm>
#include <cmath>

namespace placesim::explore {

SpeedupStats speedup_stats(const std::vector<double>& speedups) {
  SpeedupStats s;
  s.points = static_cast<int>(speedups.size());
  if (speedups.empty()) return s;
  double log_sum = 0;
  for (double x : speedups) log_sum += std::log(x);
  s.geomean = std::exp(log_sum / static_cast<double>(speedups.size()));
  s.min = *std::min_element(speedups.begin(), speedups.end());
  s.max = *std::max_element(speedups.begin(), speedups.end());
  return s;
}

}  // namespace placesim::explore
