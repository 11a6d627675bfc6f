#include "app/explore/compare_summary.hpp"

#include <algorithm>
#include <cmath>

namespace placesim::explore {

std::optional<double> largest_peak(const std::map<std::string, double>& peak_mem) {
  std::optional<double> m;
  for (auto& [dev, bytes] : peak_mem) m = std::max(m.value_or(bytes), bytes);
  return m;
}

// Merged files need not share their axes: a point without an axis is left out of its pivot.
static std::vector<Pivot> pivots_of(const Comparison& c) {
  std::vector<Pivot> pivots;
  for (const Comparison::Row& r : c.rows)
    for (const auto& av : r.point)  // not a structured binding: clang 14 cannot capture one
      if (std::none_of(pivots.begin(), pivots.end(), [&](const Pivot& p) { return p.axis == av.first; }))
        pivots.push_back({av.first, {}});
  for (Pivot& p : pivots) {
    std::vector<std::vector<std::vector<double>>> speedups;  // value, placer -> speed-ups
    for (const Comparison::Row& r : c.rows) {
      const auto at_axis = std::find_if(r.point.begin(), r.point.end(), [&](auto& av) { return av.first == p.axis; });
      if (at_axis == r.point.end()) continue;
      auto it = std::find_if(p.rows.begin(), p.rows.end(), [&](const Pivot::Row& pr) { return pr.value == at_axis->second; });
      if (it == p.rows.end()) {
        p.rows.push_back({at_axis->second, {}});
        speedups.emplace_back(c.placers.size());
        it = p.rows.end() - 1;
      }
      auto& at = speedups[static_cast<size_t>(it - p.rows.begin())];
      for (size_t k = 0; k < c.placers.size(); ++k)
        if (r.speedup[k]) at[k].push_back(*r.speedup[k]);
    }
    for (size_t v = 0; v < p.rows.size(); ++v)
      for (auto& s : speedups[v]) p.rows[v].speedup.push_back(speedup_stats(s));
  }
  return pivots;
}

CompareSummary summarize(const Comparison& c, double tie) {
  CompareSummary s;
  s.tie = tie;
  const auto base = std::find(c.placers.begin(), c.placers.end(), c.baseline);
  for (size_t k = 0; k < c.placers.size(); ++k) {
    PlacerSummary p;
    p.placer = c.placers[k];
    p.speedup = c.stats[k];
    for (const Comparison::Row& r : c.rows) {
      if (r.status[k].empty()) continue;  // no run of this placer at this point (merged files)
      ++p.status[r.status[k]];
      if (auto m = largest_peak(r.peak_mem[k])) p.peak_bytes = std::max(p.peak_bytes.value_or(*m), *m);
      p.placement_s += r.placement_s[k].value_or(0);
      if (base == c.placers.end() || !r.speedup[k]) continue;
      const double b = *r.value[static_cast<size_t>(base - c.placers.begin())], v = *r.value[k];
      if (std::fabs(v - b) <= tie * b) ++p.ties;
      else if (v < b) ++p.wins;
      else ++p.losses;
    }
    s.placers.push_back(std::move(p));
  }
  s.pivots = pivots_of(c);
  return s;
}

}  // namespace placesim::explore
