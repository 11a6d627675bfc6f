// What a set of speed-ups sums up to: their geometric mean (the mean of ratios that treats a
// 2x win and a 2x loss as cancelling), the smallest and the largest, and how many there were.
#pragma once

#include <optional>
#include <vector>

namespace placesim::explore {

struct SpeedupStats {
  std::optional<double> geomean, min, max;  // none over no speed-ups
  int points = 0;
};

// speedups: each positive and finite.
SpeedupStats speedup_stats(const std::vector<double>& speedups);

}  // namespace placesim::explore
