#include "app/explore/results_csv.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>

#include "app/explore/axis_values.hpp"

namespace placesim::explore {

namespace {

std::string field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; }

}  // namespace

std::string results_csv(const RunSet& set) {
  std::string out = "point_index";
  for (const std::string& axis : set.axes) out += "," + field(axis);
  out += ",placer,status,makespan_s,predicted_s,speedup,gap,ttft_s,tpot_s,peak_memory_bytes,comm_bytes,placement_s,seed,"
         "message\r\n";
  for (const RunResult& r : set.runs) {
    out += std::to_string(r.point_index);
    for (size_t k = 0; k < set.axes.size(); ++k) {
      const std::string text = k < r.point.size() ? r.point[k].second : "";
      const bool numeric = k < set.axis_numeric.size() && set.axis_numeric[k];
      out += "," + (numeric ? number(axis_number(text)) : field(text));
    }
    std::optional<double> peak;
    for (const auto& [device, bytes] : r.peak_mem_bytes) peak = std::max(peak.value_or(bytes), bytes);
    const std::optional<double> ttft = r.generation ? r.generation->ttft_s : std::nullopt;
    const std::optional<double> tpot = r.generation ? r.generation->tpot_s : std::nullopt;
    const std::optional<double> comm = r.comm_bytes ? std::optional<double>(r.comm_bytes->total) : std::nullopt;
    out += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n", field(r.placer), scheduler::to_string(r.status),
                       number(r.makespan_s), number(r.predicted_s), number(r.speedup), number(r.gap), number(ttft),
                       number(tpot), number(peak), number(comm), number(r.placement_s), r.seed, field(r.message));
  }
  return out;
}

}  // namespace placesim::explore
