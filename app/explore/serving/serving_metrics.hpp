// What a served stream measured (docs/results.md, "Serving metrics"): latency percentiles of the
// time to first token (TTFT), the time per output token after it (TPOT) and end to end, the
// throughput, and the share of requests that met the SLO targets.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "app/explore/serving/serving_loop.hpp"

namespace placesim::explore {

// Nearest-rank percentiles (the smallest value with at least p% of the values at or below it).
struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};
Percentiles percentiles(std::vector<double> values);  // all 0 when empty

// Per-request targets; a request meets the SLO when it meets every target given.
struct SloTargets {
  std::optional<double> ttft_s, tpot_s;
};

struct ServingMetrics {
  Percentiles ttft, tpot, e2e;  // seconds; TPOT over the requests that generate more than one token
  double requests_per_s = 0;    // requests over the span from the first arrival to the last finish
  double tokens_per_s = 0;      // generated tokens over the same span
  double slo_attainment = 1;    // share of requests meeting the SLO (1 with no target)
  double goodput_per_s = 0;     // requests meeting the SLO per second of the span
  double kv_mean_use = 0;       // blocks held on average over the span, as a share of the replica's
  std::int64_t preemptions = 0;
};

ServingMetrics serving_metrics(const std::vector<models::Request>& requests, const ServingTrace& trace,
                               const ServingConfig& config, const SloTargets& slo);

}  // namespace placesim::explore
