// The highest arrival rate each placer serves within latency targets (`placesim capacity`;
// docs/scenarios.md, "Serving a request stream"): the scenario's stream drawn again at other rates
// (the same seed: the arrivals scale as 1 / rate, the tokens stay), served by the placer's plans,
// placed once; the rate doubled (or halved) until it brackets the targets, then bisected ten
// times. Latency need not rise monotonically with the rate, so the answer is the boundary the
// search finds: the targets hold at it, and not at the bracket's upper end.
#pragma once

#include <string>
#include <vector>

#include "app/explore/serving/serve_point.hpp"

namespace placesim::explore {

// One target: a latency's percentile (50, 90, 99) or mean (0) at most `seconds`.
struct SloBound {
  std::string metric;  // ttft | tpot | e2e
  int percentile = 99;
  double seconds = 0;
  std::string text;  // as given: "ttft_p99=2s"
};
// "ttft_p99=2s,tpot_p99=100ms" (metrics ttft, tpot, e2e; p50, p90, p99 or mean); InputError at
// `where` naming the bad part.
std::vector<SloBound> parse_slo_bounds(const std::string& text, const SourceLoc& where);
bool meets(const ServingMetrics& m, const std::vector<SloBound>& slo);

struct CapacityRun {
  std::string placer;
  std::string status = "ok";  // ok, or why it has no capacity (a bound, no plan, no rate meets)
  std::string message;
  double max_rate = 0;        // requests per second
  ServedRun at;               // served at max_rate
  int evaluations = 0;        // streams served in the search
};

std::vector<CapacityRun> capacity_point(const Scenario& s, const Point& p, const std::vector<SloBound>& slo);

}  // namespace placesim::explore
