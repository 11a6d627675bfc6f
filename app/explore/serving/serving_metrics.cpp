#include "app/explore/serving/serving_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace placesim::explore {

namespace {

// The smallest of the sorted values with at least q% of them at or below it.
double nearest_rank(const std::vector<double>& sorted, double q) {
  const auto k = static_cast<size_t>(std::ceil(q / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::max<size_t>(k, 1) - 1];
}

}  // namespace

Percentiles percentiles(std::vector<double> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  p.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  p.p50 = nearest_rank(values, 50);
  p.p90 = nearest_rank(values, 90);
  p.p99 = nearest_rank(values, 99);
  return p;
}

std::vector<double> quantiles(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  std::vector<double> out;
  for (int q = 0; q <= 100; ++q) out.push_back(nearest_rank(values, q));
  return out;
}

namespace {

nlohmann::ordered_json percentiles_json(const Percentiles& p) {
  return {{"mean", p.mean}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}};
}

}  // namespace

nlohmann::ordered_json serving_json(const ServingResult& r) {
  const ServingMetrics& m = r.metrics;
  return {{"replicas", r.replicas},           {"kv_blocks", r.kv_blocks},
          {"ttft_s", percentiles_json(m.ttft)}, {"tpot_s", percentiles_json(m.tpot)},
          {"e2e_s", percentiles_json(m.e2e)},   {"requests_per_s", m.requests_per_s},
          {"tokens_per_s", m.tokens_per_s},     {"slo_attainment", m.slo_attainment},
          {"goodput_per_s", m.goodput_per_s},   {"kv_mean_use", m.kv_mean_use},
          {"preemptions", m.preemptions},       {"iterations", r.iterations},
          {"peak_blocks", r.peak_blocks},       {"simulations", r.simulations},
          {"bucket_error", r.bucket_error},     {"error_samples", r.error_samples}};
}

ServingMetrics serving_metrics(const std::vector<models::Request>& requests, const ServingTrace& trace,
                               const ServingConfig& config, const SloTargets& slo) {
  ServingMetrics m;
  std::vector<double> ttft, tpot, e2e;
  double first = INFINITY, last = 0, tokens = 0;
  int met = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const RequestTimes& t = trace.requests[i];
    const double to_first = t.first_token_s - t.arrival_s;
    ttft.push_back(to_first);
    e2e.push_back(t.finish_s - t.arrival_s);
    const bool several = requests[i].output > 1;
    const double per_token = several ? (t.finish_s - t.first_token_s) / static_cast<double>(requests[i].output - 1) : 0;
    if (several) tpot.push_back(per_token);
    met += (!slo.ttft_s || to_first <= *slo.ttft_s) && (!slo.tpot_s || per_token <= *slo.tpot_s);
    first = std::min(first, t.arrival_s);
    last = std::max(last, t.finish_s);
    tokens += static_cast<double>(requests[i].output);
  }
  m.ttft_quantiles = quantiles(ttft);
  m.ttft = percentiles(std::move(ttft));
  m.tpot = percentiles(std::move(tpot));
  m.e2e = percentiles(std::move(e2e));
  const double span = last - first;
  if (!requests.empty()) m.slo_attainment = static_cast<double>(met) / static_cast<double>(requests.size());
  if (span > 0) {
    m.requests_per_s = static_cast<double>(requests.size()) / span;
    m.tokens_per_s = tokens / span;
    m.goodput_per_s = met / span;
    m.kv_mean_use = trace.block_seconds / span / static_cast<double>(config.kv_blocks);
  }
  m.preemptions = trace.preemptions;
  return m;
}

}  // namespace placesim::explore
