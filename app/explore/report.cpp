#include "app/explore/report.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "models/generation.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "app/explore/axis_values.hpp"

namespace placesim::explore {

static nlohmann::ordered_json opt(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

// {"total", "inter_node", "per_gpu": {device: bytes}, "by_kind": {kind: bytes}}; null for none.
static nlohmann::ordered_json comm_json(const std::optional<scheduler::CommBytes>& c) {
  if (!c) return nullptr;
  nlohmann::ordered_json per_gpu = nlohmann::ordered_json::object(), by_kind = nlohmann::ordered_json::object();
  for (auto& [dev, bytes] : c->per_gpu) per_gpu[dev] = bytes;
  for (auto& [kind, bytes] : c->by_kind) by_kind[kind] = bytes;
  return {{"total", c->total}, {"inter_node", c->inter_node}, {"per_gpu", per_gpu}, {"by_kind", by_kind}};
}

nlohmann::ordered_json milp_json(const std::optional<scheduler::MilpRecord>& m) {
  if (!m) return nullptr;
  return {{"plan_source", m->plan_source}, {"makespan_s", opt(m->makespan_s)}, {"objective_s", opt(m->objective_s)},
          {"bound_s", opt(m->bound_s)},    {"solves", m->solves},             {"optimal", m->optimal},
          {"nodes", m->nodes}};
}

// A whole generation's figures beside the run's (its makespan is the end-to-end latency).
static void add_generation_json(nlohmann::ordered_json& j, const GenerationResult& g) {
  j["ttft_s"] = opt(g.ttft_s);
  j["tpot_s"] = opt(g.tpot_s);
  j["generation"] = {
      {"input_tokens", g.input_tokens},
      {"output_tokens", g.output_tokens},
      {"kv_stride", g.kv_stride},
      {"decode_steps", g.output_tokens - 1},
      {"simulated_decode_steps", models::decode_steps(g.input_tokens, g.output_tokens, g.kv_stride).size()},
      {"weights_shared", g.weights_shared ? nlohmann::ordered_json(*g.weights_shared) : nlohmann::ordered_json(nullptr)}};
}

nlohmann::ordered_json runs_to_json(const RunSet& set, bool timing) {
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const RunResult& r : set.runs) {
    const nlohmann::ordered_json point = point_json(r.point, set.axes, set.axis_numeric);
    nlohmann::ordered_json mem = nlohmann::ordered_json::object();
    for (auto& [dev, bytes] : r.peak_mem_bytes) mem[dev] = bytes;
    nlohmann::ordered_json j;
    j["point"] = point;
    j["placer"] = r.placer;
    j["status"] = scheduler::to_string(r.status);
    j["makespan_s"] = opt(r.makespan_s);
    j["predicted_s"] = opt(r.predicted_s);
    // A bound (critical-path) says so: its prediction bounds the makespan from below.
    j["lower_bound_s"] = is_bound(r) ? opt(r.predicted_s) : nlohmann::ordered_json(nullptr);
    // The placer's own prediction against the simulation: (predicted - simulated) / simulated.
    j["prediction_error"] = r.predicted_s && r.makespan_s && *r.makespan_s > 0
                                ? nlohmann::ordered_json((*r.predicted_s - *r.makespan_s) / *r.makespan_s)
                                : nlohmann::ordered_json(nullptr);
    j["speedup"] = opt(r.speedup);
    // JSON has no infinity: a MILP placer whose solve found nothing has gap null and says so.
    j["gap"] = r.gap && std::isfinite(*r.gap) ? nlohmann::ordered_json(*r.gap) : nlohmann::ordered_json(nullptr);
    j["milp"] = milp_json(r.milp);
    j["peak_mem_bytes"] = mem;
    j["comm_bytes"] = comm_json(r.comm_bytes);
    if (r.generation) add_generation_json(j, *r.generation);
    if (r.serving) j["serving"] = serving_json(*r.serving);
    if (timing) j["placement_s"] = r.placement_s;
    j["message"] = r.message;
    j["choices"] = r.choices;
    j["seed"] = r.seed;
    runs.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["scenario"] = set.scenario;
  out["baseline"] = set.baseline.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(set.baseline);
  out["runs"] = runs;
  return out;
}

namespace {

constexpr Metric kFirstServed = Metric::MeanTtft;
constexpr const char* kServedNames[3] = {"ttft", "tpot", "e2e"};
constexpr const char* kServedTitles[3] = {"time to first token", "time per output token", "end-to-end latency"};
constexpr const char* kStats[4] = {"mean", "p50", "p90", "p99"};

// A served stream's metric as (latency 0-2, statistic 0-3); none for the others.
std::optional<std::pair<int, int>> served_parts(Metric m) {
  const int i = static_cast<int>(m) - static_cast<int>(kFirstServed);
  if (i < 0) return std::nullopt;
  return std::pair{i / 4, i % 4};
}

std::vector<Metric> every_metric() {
  std::vector<Metric> all;
  for (int i = 0; i <= static_cast<int>(Metric::P99E2e); ++i) all.push_back(static_cast<Metric>(i));
  return all;
}

}  // namespace

Metric parse_metric(const std::string& s) {
  for (Metric m : every_metric())
    if (s == to_string(m)) return m;
  throw InputError(fmt::format("unknown metric '{}' (expected makespan, predicted, ttft, tpot, or a served stream's "
                               "STAT_LATENCY with STAT mean, p50, p90 or p99 and LATENCY ttft, tpot or e2e: p99_ttft)",
                               s));
}

const char* to_string(Metric m) {
  static const std::vector<std::string> served = [] {
    std::vector<std::string> names;
    for (const char* latency : kServedNames)
      for (const char* stat : kStats) names.push_back(std::string(stat) + "_" + latency);
    return names;
  }();
  switch (m) {
    case Metric::Makespan: return "makespan";
    case Metric::Predicted: return "predicted";
    case Metric::Ttft: return "ttft";
    case Metric::Tpot: return "tpot";
    default: {
      const auto [latency, stat] = *served_parts(m);
      return served[static_cast<size_t>(4 * latency + stat)].c_str();
    }
  }
}

// The metric's value for one run, seconds; none where the run has none.
static std::optional<double> metric_of(const RunResult& r, Metric m) {
  switch (m) {
    case Metric::Makespan: return r.makespan_s;
    case Metric::Predicted: return r.predicted_s;
    case Metric::Ttft: return r.generation ? r.generation->ttft_s : std::nullopt;
    case Metric::Tpot: return r.generation ? r.generation->tpot_s : std::nullopt;
    default: {
      if (!r.serving) return std::nullopt;
      const auto [latency, stat] = *served_parts(m);
      const ServingMetrics& s = r.serving->metrics;
      const Percentiles& p = latency == 0 ? s.ttft : latency == 1 ? s.tpot : s.e2e;
      return stat == 0 ? p.mean : stat == 1 ? p.p50 : stat == 2 ? p.p90 : p.p99;
    }
  }
}

static std::string metric_title(Metric m) {
  switch (m) {
    case Metric::Makespan: return "simulated makespan";
    case Metric::Predicted: return "placer's prediction";
    case Metric::Ttft: return "time to first token";
    case Metric::Tpot: return "time per output token";
    default: {
      const auto [latency, stat] = *served_parts(m);
      return fmt::format("{} {}", stat == 0 ? "mean" : kStats[stat], kServedTitles[latency]);
    }
  }
}

bool is_bound(const RunResult& r) {
  return r.status == scheduler::RunStatus::Ok && !r.makespan_s && r.predicted_s.has_value();
}

Comparison compare(const RunSet& set, const std::string& baseline, Metric metric) {
  Comparison c;
  c.metric = metric;
  c.baseline = baseline.empty() ? set.baseline : baseline;
  c.axes = set.axes;
  c.axis_numeric = set.axis_numeric;
  std::map<std::string, size_t> col;
  for (const RunResult& r : set.runs)
    if (col.emplace(r.placer, c.placers.size()).second) c.placers.push_back(r.placer);
  if (set.runs.empty())  // a sweep that ended (Ctrl-C, a full disk) before its first point finished
    throw InputError(fmt::format("results of '{}' hold no runs: the sweep that wrote them ended before a point "
                                 "finished (run it again, or with --resume)",
                                 set.scenario));
  if (!c.baseline.empty() && !col.count(c.baseline)) {
    std::string known;
    for (auto& p : c.placers) known += (known.empty() ? "" : ", ") + p;
    throw InputError(fmt::format("baseline '{}' is not among the placers (known: {})", c.baseline, known));
  }
  std::map<int, size_t> row;
  for (const RunResult& r : set.runs) {
    auto [it, added] = row.emplace(r.point_index, c.rows.size());
    if (added) {
      Comparison::Row nr;
      nr.point = r.point;
      nr.value.resize(c.placers.size());
      nr.speedup.resize(c.placers.size());
      nr.bound.resize(c.placers.size());
      nr.status.resize(c.placers.size());
      nr.comm.resize(c.placers.size());
      nr.milp.resize(c.placers.size());
      nr.gap.resize(c.placers.size());
      nr.peak_mem.resize(c.placers.size());
      nr.placement_s.resize(c.placers.size());
      c.rows.push_back(std::move(nr));
    }
    Comparison::Row& rr = c.rows[it->second];
    const size_t k = col[r.placer];
    // A bound's prediction is no placer's makespan or prediction: it stays a bound under both
    // metrics, so no speed-up is ever taken of it.
    const bool bound = is_bound(r);
    rr.value[k] = bound ? std::nullopt : metric_of(r, metric);
    if (bound && (metric == Metric::Makespan || metric == Metric::Predicted)) rr.bound[k] = r.predicted_s;
    rr.status[k] = bound ? "bound" : scheduler::to_string(r.status);
    rr.comm[k] = r.comm_bytes;
    rr.milp[k] = r.milp;
    rr.gap[k] = r.gap;
    rr.peak_mem[k] = r.peak_mem_bytes;
    rr.placement_s[k] = r.placement_s;
  }
  std::vector<std::vector<double>> speedups(c.placers.size());
  for (Comparison::Row& rr : c.rows) {
    if (c.baseline.empty()) break;
    const auto& base = rr.value[col[c.baseline]];
    for (size_t k = 0; k < c.placers.size(); ++k)
      if (base && rr.value[k] && *rr.value[k] > 0) {
        rr.speedup[k] = *base / *rr.value[k];
        speedups[k].push_back(*rr.speedup[k]);
      }
  }
  for (size_t k = 0; k < c.placers.size(); ++k) c.stats.push_back(speedup_stats(speedups[k]));
  return c;
}

// A MILP placer's value is marked with the warm start it returned ("warm:heft"), so the column
// never passes a heuristic's plan off as the MILP's.
static std::string cell(const std::optional<double>& v, const std::optional<double>& sp,
                        const std::optional<double>& bound, const std::string& status,
                        const std::optional<scheduler::MilpRecord>& milp) {
  if (!v && bound) return ">= " + units::format_seconds(*bound, 4);
  if (!v) return status.empty() ? "-" : status;
  std::string s = units::format_seconds(*v, 4);
  if (sp) s += fmt::format(" ({:.2f}x)", *sp);
  if (milp && milp->plan_source != "milp") s += " " + milp->plan_source;
  return s;
}

// The MILP's own plan: its simulated makespan (or "no plan") and the largest gap of its solves.
static std::string milp_cell(const std::optional<scheduler::MilpRecord>& m, const std::optional<double>& gap) {
  if (!m) return "-";
  std::string s = m->makespan_s ? units::format_seconds(*m->makespan_s, 4) : std::string("no plan");
  if (gap) s += std::isfinite(*gap) ? fmt::format(" (gap {:.1f}%)", 100 * *gap) : std::string(" (gap inf)");
  return s;
}

static std::string point_label(const std::vector<std::pair<std::string, std::string>>& point) {
  std::string label;
  for (auto& [axis, value] : point) label += (label.empty() ? "" : " ") + axis + "=" + value;
  return label.empty() ? "(single point)" : label;
}

static std::string comm_cell(const std::optional<scheduler::CommBytes>& c) {
  if (!c) return "-";
  return units::format_bytes(c->total) + " (" + units::format_bytes(c->inter_node) + ")";
}

std::string format_comparison(const Comparison& c, TableStyle style) {
  std::vector<std::string> head{"point"};
  for (auto& p : c.placers) head.push_back(p);
  std::vector<std::vector<std::string>> table{head}, comm{head};
  // The MILP placers' columns: those with a record at some point.
  std::vector<size_t> milp_cols;
  for (size_t k = 0; k < c.placers.size(); ++k)
    if (std::any_of(c.rows.begin(), c.rows.end(), [&](const Comparison::Row& r) { return r.milp[k].has_value(); }))
      milp_cols.push_back(k);
  std::vector<std::vector<std::string>> milp{{"point"}};
  for (size_t k : milp_cols) milp[0].push_back(c.placers[k]);
  bool any_comm = false;
  for (const Comparison::Row& r : c.rows) {
    std::vector<std::string> line{point_label(r.point)}, comm_line{point_label(r.point)}, milp_line{point_label(r.point)};
    for (size_t k = 0; k < c.placers.size(); ++k) {
      line.push_back(cell(r.value[k], r.speedup[k], r.bound[k], r.status[k], r.milp[k]));
      comm_line.push_back(comm_cell(r.comm[k]));
      any_comm = any_comm || r.comm[k];
    }
    for (size_t k : milp_cols) milp_line.push_back(milp_cell(r.milp[k], r.gap[k]));
    table.push_back(line);
    comm.push_back(comm_line);
    milp.push_back(milp_line);
  }
  if (!c.baseline.empty()) {
    std::vector<std::string> line{"geomean speed-up"};
    for (auto& s : c.stats) line.push_back(s.geomean ? fmt::format("{:.3f}x", *s.geomean) : "-");
    table.push_back(line);
  }
  std::string out = table_title(fmt::format("{} per point{}", metric_title(c.metric),
                                            c.baseline.empty() ? "" : fmt::format(" (speed-up over {})", c.baseline)),
                                style);
  out += render_table(table, style, !c.baseline.empty());
  if (any_comm)
    out += "\n" + table_title("bytes sent between devices per point: total (inter-node)", style) +
           render_table(comm, style);
  if (!milp_cols.empty())
    out += "\n" +
           table_title("the MILP's own plan per point, returned or not: simulated makespan (largest gap of its solves)",
                       style) +
           render_table(milp, style);
  return out;
}

std::string format_timing(const RunSet& set) {
  std::vector<std::string> placers;
  std::map<int, size_t> row;  // point index -> table row, in order of first appearance
  std::vector<std::vector<std::string>> table{{"point"}};
  for (const RunResult& r : set.runs) {
    const size_t k = std::find(placers.begin(), placers.end(), r.placer) - placers.begin();
    if (k == placers.size()) {
      placers.push_back(r.placer);
      table[0].push_back(r.placer);
    }
    auto [it, added] = row.emplace(r.point_index, table.size());
    if (added) table.push_back({point_label(r.point)});
    std::vector<std::string>& line = table[it->second];
    line.resize(k + 2, "-");
    line[k + 1] = units::format_seconds(r.placement_s, 4);
  }
  for (auto& line : table) line.resize(table[0].size(), "-");
  return "placement time per point (wall clock: a measurement, which differs between runs)\n" + render_table(table, TableStyle::Text);
}

nlohmann::ordered_json comparison_to_json(const Comparison& c) {
  nlohmann::ordered_json j;
  j["metric"] = to_string(c.metric);
  j["baseline"] = c.baseline.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.baseline);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Comparison::Row& r : c.rows) {
    const nlohmann::ordered_json point = point_json(r.point, c.axes, c.axis_numeric);
    nlohmann::ordered_json placers = nlohmann::ordered_json::object();
    for (size_t k = 0; k < c.placers.size(); ++k)
    {
      nlohmann::ordered_json mem = nlohmann::ordered_json::object();
      for (auto& [dev, bytes] : r.peak_mem[k]) mem[dev] = bytes;
      // A bound has value_s and speedup null and says what it is in lower_bound_s.
      placers[c.placers[k]] = {{"value_s", opt(r.value[k])},
                               {"lower_bound_s", opt(r.bound[k])},
                               {"speedup", opt(r.speedup[k])},
                               {"status", r.status[k]},
                               {"peak_mem_bytes", mem},
                               {"placement_s", opt(r.placement_s[k])},
                               {"comm_bytes", comm_json(r.comm[k])},
                               {"milp", milp_json(r.milp[k])}};
    }
    rows.push_back({{"point", point}, {"placers", placers}});
  }
  j["points"] = rows;
  nlohmann::ordered_json g = nlohmann::ordered_json::object();
  for (size_t k = 0; k < c.placers.size(); ++k) g[c.placers[k]] = opt(c.stats[k].geomean);
  j["geomean_speedup"] = g;
  return j;
}

}  // namespace placesim::explore
