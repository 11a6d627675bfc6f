#include "app/explore/run_result_wire.hpp"

#include <nlohmann/json.hpp>

namespace placesim::explore {

namespace {

using Json = nlohmann::json;

Json opt(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::optional<double> opt_of(const Json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<double>();
}

Json percentiles_wire(const Percentiles& p) { return {p.mean, p.p50, p.p90, p.p99}; }

Percentiles percentiles_of(const Json& j) {
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>(), j[3].get<double>()};
}

Json serving_wire(const ServingResult& v) {
  const ServingMetrics& m = v.metrics;
  return {v.replicas,          v.kv_blocks,         v.iterations,           v.peak_blocks,
          v.simulations,       v.bucket_error,      v.error_samples,        percentiles_wire(m.ttft),
          percentiles_wire(m.tpot), percentiles_wire(m.e2e), m.requests_per_s, m.tokens_per_s,
          m.slo_attainment,    m.goodput_per_s,     m.kv_mean_use,          m.preemptions,
          m.ttft_quantiles};
}

ServingResult serving_of(const Json& j) {
  ServingResult v;
  v.replicas = j[0].get<int>();
  v.kv_blocks = j[1].get<std::int64_t>();
  v.iterations = j[2].get<std::int64_t>();
  v.peak_blocks = j[3].get<std::int64_t>();
  v.simulations = j[4].get<std::int64_t>();
  v.bucket_error = j[5].get<double>();
  v.error_samples = j[6].get<int>();
  ServingMetrics& m = v.metrics;
  m.ttft = percentiles_of(j[7]);
  m.tpot = percentiles_of(j[8]);
  m.e2e = percentiles_of(j[9]);
  m.requests_per_s = j[10].get<double>();
  m.tokens_per_s = j[11].get<double>();
  m.slo_attainment = j[12].get<double>();
  m.goodput_per_s = j[13].get<double>();
  m.kv_mean_use = j[14].get<double>();
  m.preemptions = j[15].get<std::int64_t>();
  m.ttft_quantiles = j[16].get<std::vector<double>>();
  return v;
}

Json to_wire(const RunResult& r) {
  Json j = {{"point_index", r.point_index},
            {"point", r.point},
            {"placer", r.placer},
            {"status", scheduler::to_string(r.status)},
            {"makespan_s", opt(r.makespan_s)},
            {"predicted_s", opt(r.predicted_s)},
            {"gap", opt(r.gap)},
            {"speedup", opt(r.speedup)},
            {"peak_mem_bytes", r.peak_mem_bytes},
            {"placement_s", r.placement_s},
            {"message", r.message},
            {"choices", Json::binary(nlohmann::ordered_json::to_cbor(r.choices))},  // keeps its key order
            {"seed", r.seed}};
  if (const auto& m = r.milp)
    j["milp"] = {m->plan_source, opt(m->makespan_s), opt(m->objective_s), opt(m->bound_s), m->solves, m->optimal, m->nodes};
  if (const auto& c = r.comm_bytes) j["comm_bytes"] = {c->total, c->inter_node, c->per_gpu, c->by_kind};
  if (const auto& g = r.generation)
    j["generation"] = {g->input_tokens, g->output_tokens, g->kv_stride, opt(g->ttft_s), opt(g->tpot_s),
                       g->weights_shared ? Json(*g->weights_shared) : Json(nullptr)};
  if (const auto& v = r.serving) j["serving"] = serving_wire(*v);
  return j;
}

RunResult from_wire(const Json& j) {
  RunResult r;
  r.point_index = j.at("point_index").get<int>();
  r.point = j.at("point").get<std::vector<std::pair<std::string, std::string>>>();
  r.placer = j.at("placer").get<std::string>();
  r.status = scheduler::parse_run_status(j.at("status").get<std::string>());
  r.makespan_s = opt_of(j.at("makespan_s"));
  r.predicted_s = opt_of(j.at("predicted_s"));
  r.gap = opt_of(j.at("gap"));
  r.speedup = opt_of(j.at("speedup"));
  r.peak_mem_bytes = j.at("peak_mem_bytes").get<std::map<std::string, double>>();
  r.placement_s = j.at("placement_s").get<double>();
  r.message = j.at("message").get<std::string>();
  r.choices = nlohmann::ordered_json::from_cbor(j.at("choices").get_binary());
  r.seed = j.at("seed").get<std::uint64_t>();
  if (j.contains("milp")) {
    const Json& m = j["milp"];
    r.milp = scheduler::MilpRecord{m[0].get<std::string>(), opt_of(m[1]), opt_of(m[2]), opt_of(m[3]),
                                   m[4].get<int>(), m[5].get<int>(), m[6].get<std::int64_t>()};
  }
  if (j.contains("comm_bytes")) {
    const Json& c = j["comm_bytes"];
    r.comm_bytes = scheduler::CommBytes{c[0].get<double>(), c[1].get<double>(), c[2].get<std::map<std::string, double>>(),
                                        c[3].get<std::map<std::string, double>>()};
  }
  if (j.contains("generation")) {
    const Json& g = j["generation"];
    GenerationResult& out = r.generation.emplace();
    out.input_tokens = g[0].get<int>();
    out.output_tokens = g[1].get<int>();
    out.kv_stride = g[2].get<int>();
    out.ttft_s = opt_of(g[3]);
    out.tpot_s = opt_of(g[4]);
    if (!g[5].is_null()) out.weights_shared = g[5].get<bool>();
  }
  if (j.contains("serving")) r.serving = serving_of(j["serving"]);
  return r;
}

}  // namespace

std::vector<std::uint8_t> runs_to_wire(const std::vector<RunResult>& runs) {
  Json all = Json::array();
  for (const RunResult& r : runs) all.push_back(to_wire(r));
  return Json::to_cbor(all);
}

std::vector<RunResult> runs_from_wire(const std::vector<std::uint8_t>& bytes) {
  const Json all = Json::from_cbor(bytes);
  std::vector<RunResult> runs;
  for (const Json& j : all) runs.push_back(from_wire(j));
  return runs;
}

std::vector<std::uint8_t> set_to_wire(const RunSet& set) {
  Json runs = Json::array();
  for (const RunResult& r : set.runs) runs.push_back(to_wire(r));
  return Json::to_cbor(Json{{"scenario", set.scenario},   {"scenario_text", set.scenario_text},
                            {"hardware_text", set.hardware_text}, {"baseline", set.baseline},
                            {"axes", set.axes},           {"axis_numeric", set.axis_numeric},
                            {"command", set.command},     {"runs", std::move(runs)}});
}

RunSet set_from_wire(const std::vector<std::uint8_t>& bytes) {
  const Json j = Json::from_cbor(bytes);
  RunSet set;
  set.scenario = j.at("scenario").get<std::string>();
  set.scenario_text = j.at("scenario_text").get<std::string>();
  set.hardware_text = j.at("hardware_text").get<std::string>();
  set.baseline = j.at("baseline").get<std::string>();
  set.axes = j.at("axes").get<std::vector<std::string>>();
  set.axis_numeric = j.at("axis_numeric").get<std::vector<bool>>();
  set.command = j.at("command").get<std::string>();
  for (const Json& r : j.at("runs")) set.runs.push_back(from_wire(r));
  return set;
}

}  // namespace placesim::explore
