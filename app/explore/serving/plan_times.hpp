// A replica's iteration times from its placed plans (docs/execution.md, "Serving a request
// stream"). An iteration runs its prefill, then its decodes:
//   * the prefill of s sequences' n prompt tokens is the prefill plan simulated on the model's graph
//     at batch s and ceil(n / s) positions (every sequence at the mean chunk);
//   * the decodes of b sequences that read c cached tokens in all are the decode plan simulated on
//     the graph at batch b and ceil(c / b) positions (every sequence at the mean context).
// One plan serves every shape: the transformer's node names and indices do not depend on batch
// or positions, only its costs and cache sizes do (as one decode plan serves a generation's
// steps, models/generation.hpp).
//
// Simulating every shape would cost a simulation per iteration, so each axis is cut into
// geometric buckets (edges 1, 2, ... up to 8, then each about (1 + width) times the last, the
// positions' last edge at the model's position table when it has one) and a
// shape's time is interpolated linearly between the simulations at its bucket's edges (four for
// each phase), each simulated once and kept. exact() simulates the shape
// itself: the interpolation's error is measured against it (tests, and what a run reports).
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "app/explore/serving/serving_loop.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::explore {

class PlanTimes {
 public:
  // `prefill` and `decode`: each phase's problem (its graph at any shape) and the plan a placer
  // made for it. width > 0.
  PlanTimes(models::TransformerSpec spec, scheduler::Problem prefill, scheduler::Plan prefill_plan,
            scheduler::Problem decode, scheduler::Plan decode_plan, double width);

  double operator()(const IterationShape& s);  // interpolated between cached bucket edges
  double exact(const IterationShape& s);       // simulated at the shape itself
  std::int64_t simulations() const { return simulations_; }
  std::int64_t lookups() const { return lookups_; }

 private:
  // The bucket edges around n >= 1: (lo, hi) with lo <= n <= hi (lo == hi on an edge), hi at most
  // `limit` (the model's positions) unless n is beyond it.
  std::pair<std::int64_t, std::int64_t> edges(std::int64_t n, std::int64_t limit) const;
  double phase_time(bool decode, std::int64_t batch, std::int64_t positions);
  double cached(bool decode, std::int64_t batch, std::int64_t positions);
  double phase_at(bool decode, std::int64_t seqs, std::int64_t tokens, bool exact);

  models::TransformerSpec spec_;
  scheduler::Problem prefill_, decode_;
  scheduler::Plan prefill_plan_, decode_plan_;
  double width_;
  std::int64_t positions_;  // the model's largest sequence: its learned position table's rows
  std::map<std::tuple<bool, std::int64_t, std::int64_t>, double> cache_;
  std::int64_t simulations_ = 0, lookups_ = 0;
};

}  // namespace placesim::explore
