// What `placesim compare` adds to the per-point table (report.hpp): per placer, its speed-ups
// over the baseline summed up (geometric mean, min, max), its wins, ties and losses against the
// baseline, its runs per status, its largest peak memory and its total placement time; and per
// sweep axis, a pivot: the geometric-mean speed-up at each of the axis's values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/explore/report.hpp"
#include "app/explore/speedup_stats.hpp"
#include "app/explore/text_table.hpp"

namespace placesim::explore {

struct PlacerSummary {
  std::string placer;
  SpeedupStats speedup;  // Comparison::stats: over the points where it and the baseline have a value
  // Against the baseline at those same points: a tie when the two values differ by at most
  // `tie` times the baseline's, a win when the placer's is smaller by more, a loss otherwise.
  int wins = 0, ties = 0, losses = 0;
  // Runs per status word (scheduler/run_status.hpp), a bound counted as "bound", not "ok".
  std::map<std::string, int> status;
  std::optional<double> peak_bytes;  // the largest one device's peak over its runs; none: no figure
  double placement_s = 0;            // its placement times summed over its runs (measured)
};

struct Pivot {
  std::string axis;
  struct Row {
    std::string value;
    std::vector<SpeedupStats> speedup;  // per placer, over the points with this value
  };
  std::vector<Row> rows;  // the axis's values in order of first appearance
};

struct CompareSummary {
  double tie = 0;
  std::vector<PlacerSummary> placers;  // in Comparison::placers order
  std::vector<Pivot> pivots;           // per axis, in the points' axis order
};

// Values within 1% of the baseline's tie, unless `compare --tie` says otherwise.
inline constexpr double kDefaultTie = 0.01;

// The peak memory of the fullest device (the figure that decides whether a plan fits); none
// for no devices.
std::optional<double> largest_peak(const std::map<std::string, double>& peak_mem);

// tie: relative, >= 0. Without a baseline, no speed-ups and no wins, ties or losses.
CompareSummary summarize(const Comparison& c, double tie);

// The summary table, the pivots, and per point the largest device's peak memory and the
// placement time.
std::string format_summary(const Comparison& c, const CompareSummary& s, TableStyle style);

// {"tie", "placers": {label: {speedup: {geomean, min, max, points}, wins, ties, losses, status,
// peak_mem_bytes, placement_s}}, "pivot": {axis: [{value, geomean_speedup: {label: x}}]}}
nlohmann::ordered_json summary_to_json(const Comparison& c, const CompareSummary& s);

// The document `placesim compare --json` prints, which `placesim plot speedup` draws:
// comparison_to_json, the scenario's name (names, for merged files) and the summary.
nlohmann::ordered_json compare_document(const std::string& scenario, const Comparison& c, const CompareSummary& s);

}  // namespace placesim::explore
