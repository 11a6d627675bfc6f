#include "app/explore/serving/serving_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace placesim::explore {

Percentiles percentiles(std::vector<double> values) {
  Percentiles p;
  if (values.empty()) return p;
  std::sort(values.begin(), values.end());
  const auto rank = [&](double q) {
    const auto k = static_cast<size_t>(std::ceil(q / 100.0 * static_cast<double>(values.size())));
    return values[std::max<size_t>(k, 1) - 1];
  };
  p.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  p.p50 = rank(50);
  p.p90 = rank(90);
  p.p99 = rank(99);
  return p;
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
