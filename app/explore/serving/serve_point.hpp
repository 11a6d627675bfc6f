// A scenario with a request stream (`requests:`, `serving:`; docs/scenarios.md, "Serving a
// request stream"), served by each of its placers at one sweep point: the placer plans a prefill
// and a decode step, the plans give the iteration times (plan_times.hpp), the memory they leave
// free gives the KV blocks, and the serving loop replays the stream (serving_loop.hpp).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/explore/scenario.hpp"
#include "app/explore/serving/plan_times.hpp"
#include "app/explore/serving/serving_metrics.hpp"
#include "models/request_stream.hpp"

namespace placesim::explore {

// The `serving` map: batching (static | continuous | chunked, default continuous), max_batch
// (256), token_budget (512, chunked only), block_tokens (16), bucket (0.25: the iteration-time
// cache's relative width), replicas (1, or auto: as many copies of the plan as the machine's
// devices hold), slo: {ttft: 2s, tpot: 100ms} (each optional). Errors at their key.
struct ServingOptions {
  ServingConfig config;  // its kv_blocks is each placer's, from its plan's free memory
  double bucket = 0.25;
  int replicas = 1;      // 0: auto
  SloTargets slo;
};
ServingOptions parse_serving(const Yaml& y);  // y may be undefined: the defaults

// One placer's service of the stream, or why there is none.
struct ServedRun : ServingResult {
  std::string placer;
  std::string status = "ok";  // ok, or why it did not serve (a bound, no plan, no memory left)
  std::string message;
};

// trace_dir: when given, each placer's served stream is written there as a Chrome trace,
// <point>-<placer>.json (stream_trace.hpp).
std::vector<ServedRun> serve_point(const Scenario& s, const Point& p, const std::string& trace_dir = "");

// The pieces serve_point and capacity_point (capacity.hpp) share.
// The point's model, refused at its key when the serving loop cannot take it (layer granularity,
// mixture of experts).
models::TransformerSpec serving_model(const Yaml& model, std::uint64_t seed);
// The point's stream spec (a trace's path taken from the scenario's folder), and its stream, each
// request within the model's positions (else an error at `y`).
models::RequestSpec request_spec(const Scenario& s, const Yaml& y);
std::vector<models::Request> requests_for(const models::RequestSpec& spec, const Yaml& y,
                                          const models::TransformerSpec& model);
// A placer made ready to serve: its prefill and decode plans' iteration times, its KV blocks and
// how many replicas serve, or why it cannot serve (head.status), placed for `reqs`' mean prompt
// and output. Replicas are copies of the plans on disjoint devices of the same kinds, each taken
// to run as fast as the placed one (docs/execution.md, "Replicas"); more than the machine holds
// is infeasible.
struct Replica {
  ServedRun head;
  ServingConfig config;
  std::unique_ptr<PlanTimes> times;
};
Replica prepare_replica(const Scenario& s, const Point& pt, const scheduler::PlacerSpec& placer,
                        const models::TransformerSpec& model, const ServingOptions& opts,
                        const std::vector<models::Request>& reqs);
// The stream served by a ready replica (its times cached across calls); the buckets' error
// against exact simulation measured when report_error; written as a trace to trace_file when
// one is named.
ServedRun replay(Replica& replica, const std::vector<models::Request>& reqs, const SloTargets& slo, bool report_error,
                 const std::string& trace_file = "");

}  // namespace placesim::explore
