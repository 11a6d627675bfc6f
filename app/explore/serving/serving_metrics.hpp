// What a served stream measured (docs/results.md, "Serving metrics"): latency percentiles of the
// time to first token (TTFT), the time per output token after it (TPOT) and end to end, the
// throughput, and the share of requests that met the SLO targets.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/explore/serving/serving_loop.hpp"

namespace placesim::explore {

// Nearest-rank percentiles (the smallest value with at least p% of the values at or below it).
struct Percentiles {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
  bool operator==(const Percentiles&) const = default;
};
Percentiles percentiles(std::vector<double> values);  // all 0 when empty
// values at 0, 1, ..., 100% by the same nearest rank (empty when values is)
std::vector<double> quantiles(std::vector<double> values);

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
  // TTFT at 0, 1, ..., 100% of the requests (nearest rank, 0%: the shortest): its CDF to draw.
  std::vector<double> ttft_quantiles;
  bool operator==(const ServingMetrics&) const = default;
};

// A placer's service of a stream, as `placesim serve` prints it and results files keep it.
struct ServingResult {
  ServingMetrics metrics;
  int replicas = 1;               // copies of the plan serving the stream, requests dealt round-robin
  std::int64_t kv_blocks = 0;     // each replica's
  std::int64_t iterations = 0, peak_blocks = 0, simulations = 0;  // summed over replicas; peak: a replica's
  // The iteration-time buckets' largest relative error against exact simulation, over
  // `error_samples` iterations spread over the run (plan_times.hpp).
  double bucket_error = 0;
  int error_samples = 0;
  bool operator==(const ServingResult&) const = default;
};

// `placesim serve --json`'s figures of one run, as `run --json` gives a results file's "serving"
// (the TTFT quantiles left out).
nlohmann::ordered_json serving_json(const ServingResult& r);

ServingMetrics serving_metrics(const std::vector<models::Request>& requests, const ServingTrace& trace,
                               const ServingConfig& config, const SloTargets& slo);

}  // namespace placesim::explore
