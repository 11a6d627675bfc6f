// HEFT's insertion policy as the paper reads, with nothing indexed: the earliest start of a
// task of length `dur`, ready at `ready`, on a device whose busy intervals `busy` holds sorted,
// scanning its gaps one by one from the first interval that ends after `ready` (without
// insertion: after the last interval). The reference the gap index (timeline_test.cpp) and
// heft_schedule (heft_reference_test.cpp) are held to.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace placers_test {

inline double scan_insertion(const std::vector<std::pair<double, double>>& busy, double ready, double dur,
                             bool insertion) {
  const double last = busy.empty() ? 0.0 : busy.back().second;
  if (!insertion) return std::max(ready, last);
  double s = ready;
  for (const auto& [start, finish] : busy) {
    if (finish <= ready) continue;
    if (s + dur <= start) return s;
    s = std::max(s, finish);
  }
  return s;
}

}  // namespace placers_test
