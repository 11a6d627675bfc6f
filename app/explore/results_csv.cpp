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

// A served stream's columns (`placesim serve -o`), in a set that has one: its figures, or empty
// fields for a run without them.
constexpr const char* kServingColumns =
    ",replicas,kv_blocks,ttft_p50_s,ttft_p99_s,tpot_p50_s,tpot_p99_s,e2e_p99_s,requests_per_s,tokens_per_s,"
    "slo_attainment,goodput_per_s,preemptions";

std::string serving_fields(const std::optional<ServingResult>& v) {
  if (!v) return std::string(12, ',');
  const ServingMetrics& m = v->metrics;
  return fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{}", v->replicas, v->kv_blocks, m.ttft.p50, m.ttft.p99, m.tpot.p50,
                     m.tpot.p99, m.e2e.p99, m.requests_per_s, m.tokens_per_s, m.slo_attainment, m.goodput_per_s,
                     m.preemptions);
}

}  // namespace

std::string results_csv(const RunSet& set) {
  const bool served = std::any_of(set.runs.begin(), set.runs.end(), [](const RunResult& r) { return r.serving.has_value(); });
  std::string out = "point_index";
  for (const std::string& axis : set.axes) out += ',' + field(axis);
  out += ",placer,status,makespan_s,predicted_s,speedup,gap,ttft_s,tpot_s,peak_memory_bytes,comm_bytes,placement_s,seed";
  out += std::string(served ? kServingColumns : "") + ",message\r\n";
  for (const RunResult& r : set.runs) {
    out += std::to_string(r.point_index);
    for (size_t k = 0; k < set.axes.size(); ++k) {
      const std::string text = k < r.point.size() ? r.point[k].second : "";
      const bool numeric = k < set.axis_numeric.size() && set.axis_numeric[k];
      out += ',' + (numeric ? number(axis_number(text)) : field(text));
    }
    std::optional<double> peak;
    for (const auto& [device, bytes] : r.peak_mem_bytes) peak = std::max(peak.value_or(bytes), bytes);
    const std::optional<double> ttft = r.generation ? r.generation->ttft_s : std::nullopt;
    const std::optional<double> tpot = r.generation ? r.generation->tpot_s : std::nullopt;
    const std::optional<double> comm = r.comm_bytes ? std::optional<double>(r.comm_bytes->total) : std::nullopt;
    out += fmt::format(",{},{},{},{},{},{},{},{},{},{},{},{}", field(r.placer), scheduler::to_string(r.status),
                       number(r.makespan_s), number(r.predicted_s), number(r.speedup), number(r.gap), number(ttft),
                       number(tpot), number(peak), number(comm), number(r.placement_s), r.seed);
    out += (served ? serving_fields(r.serving) : "") + "," + field(r.message) + "\r\n";
  }
  return out;
}

}  // namespace placesim::explore
