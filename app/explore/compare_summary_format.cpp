// format_summary and summary_to_json (compare_summary.hpp).
#include <fmt/format.h>

#include "sim/core/units.hpp"
#include "app/explore/compare_summary.hpp"

namespace placesim::explore {

static std::string ratio(const std::optional<double>& x) { return x ? fmt::format("{:.3f}x", *x) : "-"; }

static nlohmann::ordered_json opt(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// "ok 3, infeasible 1": the status words in scheduler::RunStatus order, then "bound".
static std::string status_cell(const std::map<std::string, int>& status) {
  std::string s;
  for (const char* word : {"ok", "infeasible", "limit", "error", "refused", "interrupted", "bound"})
    if (auto it = status.find(word); it != status.end())
      s += fmt::format("{}{} {}", s.empty() ? "" : ", ", word, it->second);
  return s.empty() ? "-" : s;
}

static std::string summary_table(const Comparison& c, const CompareSummary& s, TableStyle style) {
  const bool base = !c.baseline.empty();
  std::vector<std::vector<std::string>> t{{"placer", "points", "geomean speed-up", "min", "max"}};
  if (base) t[0].push_back(fmt::format("win/tie/loss vs {}", c.baseline));
  for (const char* h : {"peak memory (fullest device)", "placement time (sum, measured)", "runs"}) t[0].push_back(h);
  for (const PlacerSummary& p : s.placers) {
    std::vector<std::string> line{p.placer, std::to_string(p.speedup.points), ratio(p.speedup.geomean),
                                  ratio(p.speedup.min), ratio(p.speedup.max)};
    if (base)
      line.push_back(p.placer == c.baseline || p.speedup.points == 0 ? "-"
                                                                      : fmt::format("{}/{}/{}", p.wins, p.ties, p.losses));
    line.push_back(p.peak_bytes ? units::format_bytes(*p.peak_bytes) : "-");
    line.push_back(units::format_seconds(p.placement_s));
    line.push_back(status_cell(p.status));
    t.push_back(std::move(line));
  }
  const std::string title =
      base ? fmt::format("per placer: speed-ups over {} (a tie: within {:g}%)", c.baseline, 100 * s.tie) : "per placer";
  return table_title(title, style) + render_table(t, style);
}

static std::string pivot_table(const Comparison& c, const Pivot& p, TableStyle style) {
  std::vector<std::vector<std::string>> t{{p.axis}};
  for (auto& placer : c.placers) t[0].push_back(placer);
  for (const Pivot::Row& r : p.rows) {
    std::vector<std::string> line{r.value};
    for (const SpeedupStats& st : r.speedup) line.push_back(ratio(st.geomean));
    t.push_back(std::move(line));
  }
  return table_title(fmt::format("geomean speed-up over {} per {}", c.baseline, p.axis), style) + render_table(t, style);
}

// One figure per point and placer: `of` gives the cell, "-" where the placer has no run.
template <class Cell>
static std::string per_point_table(const Comparison& c, const std::string& title, TableStyle style, Cell of) {
  std::vector<std::vector<std::string>> t{{"point"}};
  for (auto& placer : c.placers) t[0].push_back(placer);
  for (const Comparison::Row& r : c.rows) {
    std::string label;
    for (auto& [axis, value] : r.point) label += (label.empty() ? "" : " ") + axis + "=" + value;
    std::vector<std::string> line{label.empty() ? "(single point)" : label};
    for (size_t k = 0; k < c.placers.size(); ++k) line.push_back(r.status[k].empty() ? "-" : of(r, k));
    t.push_back(std::move(line));
  }
  return table_title(title, style) + render_table(t, style);
}

std::string format_summary(const Comparison& c, const CompareSummary& s, TableStyle style) {
  std::string out = summary_table(c, s, style);
  if (!c.baseline.empty())
    for (const Pivot& p : s.pivots)
      if (p.rows.size() > 1) out.append("\n").append(pivot_table(c, p, style));
  out.append("\n").append(per_point_table(c, "peak memory of the fullest device per point", style,
                                           [](const Comparison::Row& r, size_t k) {
                                             const auto m = largest_peak(r.peak_mem[k]);
                                             return m ? units::format_bytes(*m) : std::string("-");
                                           }));
  out.append("\n").append(per_point_table(c, "placement time per point (measured)", style,
                                           [](const Comparison::Row& r, size_t k) {
                                             return r.placement_s[k] ? units::format_seconds(*r.placement_s[k])
                                                                     : std::string("-");
                                           }));
  return out;
}

nlohmann::ordered_json summary_to_json(const Comparison& c, const CompareSummary& s) {
  nlohmann::ordered_json placers = nlohmann::ordered_json::object();
  for (const PlacerSummary& p : s.placers) {
    nlohmann::ordered_json status = nlohmann::ordered_json::object();
    for (auto& [word, n] : p.status) status[word] = n;
    nlohmann::ordered_json j;
    j["speedup"] = {{"geomean", opt(p.speedup.geomean)},
                    {"min", opt(p.speedup.min)},
                    {"max", opt(p.speedup.max)},
                    {"points", p.speedup.points}};
    if (!c.baseline.empty()) j["versus_baseline"] = {{"wins", p.wins}, {"ties", p.ties}, {"losses", p.losses}};
    j["status"] = status;
    j["peak_mem_bytes"] = opt(p.peak_bytes);
    j["placement_s"] = p.placement_s;
    placers[p.placer] = std::move(j);
  }
  nlohmann::ordered_json pivot = nlohmann::ordered_json::object();
  for (const Pivot& p : s.pivots) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const Pivot::Row& r : p.rows) {
      nlohmann::ordered_json g = nlohmann::ordered_json::object();
      for (size_t k = 0; k < c.placers.size(); ++k) g[c.placers[k]] = opt(r.speedup[k].geomean);
      rows.push_back({{"value", r.value}, {"geomean_speedup", g}});
    }
    pivot[p.axis] = rows;
  }
  return {{"tie", s.tie}, {"placers", placers}, {"pivot", pivot}};
}

nlohmann::ordered_json compare_document(const std::string& scenario, const Comparison& c, const CompareSummary& s) {
  nlohmann::ordered_json j = comparison_to_json(c);
  j["scenario"] = scenario;
  j["summary"] = summary_to_json(c, s);
  return j;
}

}  // namespace placesim::explore
