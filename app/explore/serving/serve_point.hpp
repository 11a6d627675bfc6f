// A scenario with a request stream (`requests:`, `serving:`; docs/scenarios.md, "Serving a
// request stream"), served by each of its placers at one sweep point: the placer plans a prefill
// and a decode step, the plans give the iteration times (plan_times.hpp), the memory they leave
// free gives the KV blocks, and the serving loop replays the stream (serving_loop.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/explore/scenario.hpp"
#include "app/explore/serving/serving_metrics.hpp"

namespace placesim::explore {

// The `serving` map: batching (static | continuous | chunked, default continuous), max_batch
// (256), token_budget (512, chunked only), block_tokens (16), bucket (0.25: the iteration-time
// cache's relative width), slo: {ttft: 2s, tpot: 100ms} (each optional). Errors at their key.
struct ServingOptions {
  ServingConfig config;  // its kv_blocks is each placer's, from its plan's free memory
  double bucket = 0.25;
  SloTargets slo;
};
ServingOptions parse_serving(const Yaml& y);  // y may be undefined: the defaults

// One placer's service of the stream.
struct ServedRun {
  std::string placer;
  std::string status = "ok";  // ok, or why it did not serve (a bound, no plan, no memory left)
  std::string message;
  ServingMetrics metrics;
  std::int64_t kv_blocks = 0, iterations = 0, peak_blocks = 0, simulations = 0;
  // The iteration-time buckets' largest relative error against exact simulation, over
  // `error_samples` iterations spread over the run (plan_times.hpp).
  double bucket_error = 0;
  int error_samples = 0;
};

std::vector<ServedRun> serve_point(const Scenario& s, const Point& p);

}  // namespace placesim::explore
