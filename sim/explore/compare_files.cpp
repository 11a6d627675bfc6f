#include "sim/explore/compare_files.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::explore {

RunSet merge_results(const std::vector<NamedRunSet>& files, const std::string& baseline) {
  if (files.size() == 1) return files[0].set;
  std::string base = baseline;
  if (base.empty())
    for (const NamedRunSet& f : files) {
      if (f.set.baseline.empty() || f.set.baseline == base) continue;
      if (!base.empty())
        throw InputError(SourceLoc{f.path}, fmt::format("its baseline is {}, an earlier file's {}: name one with --baseline",
                                                        f.set.baseline, base));
      base = f.set.baseline;
    }
  RunSet out;
  out.baseline = base;
  out.axes = {"scenario"};
  int offset = 0;
  for (const NamedRunSet& f : files) {
    const bool shared = std::count_if(files.begin(), files.end(), [&](const NamedRunSet& g) {
                          return g.set.scenario == f.set.scenario;
                        }) > 1;
    const std::string label = shared ? f.path : f.set.scenario;
    out.scenario += (out.scenario.empty() ? "" : ", ") + label;
    for (const std::string& a : f.set.axes)
      if (std::find(out.axes.begin(), out.axes.end(), a) == out.axes.end()) out.axes.push_back(a);
    int points = 0;
    for (RunResult r : f.set.runs) {
      points = std::max(points, r.point_index + 1);
      r.point_index += offset;
      r.point.insert(r.point.begin(), {"scenario", label});
      out.runs.push_back(std::move(r));
    }
    offset += points;
  }
  // An axis is numeric in the merge when it is in every file that has it; `scenario` is a name.
  for (const std::string& a : out.axes) {
    bool numeric = a != "scenario";
    for (const NamedRunSet& f : files) {
      const auto it = std::find(f.set.axes.begin(), f.set.axes.end(), a);
      const size_t k = static_cast<size_t>(it - f.set.axes.begin());
      if (it != f.set.axes.end()) numeric = numeric && k < f.set.axis_numeric.size() && f.set.axis_numeric[k];
    }
    out.axis_numeric.push_back(numeric);
  }
  return out;
}

}  // namespace placesim::explore
