#include "app/explore/serving/plan_times.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "scheduler/score_plan.hpp"

namespace placesim::explore {
namespace {

// Linear between the values at lo and hi, at n.
double between(std::int64_t lo, std::int64_t hi, std::int64_t n, double at_lo, double at_hi) {
  if (hi == lo) return at_lo;
  const double f = static_cast<double>(n - lo) / static_cast<double>(hi - lo);
  return at_lo + f * (at_hi - at_lo);
}

}  // namespace

PlanTimes::PlanTimes(models::TransformerSpec spec, scheduler::Problem prefill, scheduler::Plan prefill_plan,
                     scheduler::Problem decode, scheduler::Plan decode_plan, double width)
    : spec_(std::move(spec)), prefill_(std::move(prefill)), decode_(std::move(decode)),
      prefill_plan_(std::move(prefill_plan)), decode_plan_(std::move(decode_plan)), width_(width) {
  const int table = models::arch_of(spec_).positions;  // 0: rotary, no limit
  positions_ = table > 0 ? table : std::numeric_limits<std::int64_t>::max();
  PLACESIM_ASSERT(width_ > 0, "a bucket width must be positive");
}

std::pair<std::int64_t, std::int64_t> PlanTimes::edges(std::int64_t n, std::int64_t limit) const {
  std::int64_t lo = 1, hi = 1;
  while (hi < n) {
    lo = hi;
    hi = hi < 8 ? hi + 1 : std::max(hi + 1, static_cast<std::int64_t>(std::llround(static_cast<double>(hi) * (1 + width_))));
  }
  hi = std::min(hi, std::max(limit, n));  // a learned position table ends the last bucket
  return hi == n ? std::pair{n, n} : std::pair{lo, hi};
}

// The phase's plan simulated on its graph at (batch, positions).
double PlanTimes::phase_time(bool decode, std::int64_t batch, std::int64_t positions) {
  models::TransformerSpec spec = spec_;
  spec.phase = decode ? models::Phase::Decode : models::Phase::Prefill;
  spec.batch = static_cast<int>(batch);
  spec.seq = static_cast<int>(positions);
  scheduler::Problem p = decode ? decode_ : prefill_;
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  ++simulations_;
  return scheduler::score_plan(p, decode ? decode_plan_ : prefill_plan_).makespan_s();
}

double PlanTimes::cached(bool decode, std::int64_t batch, std::int64_t positions) {
  const auto key = std::tuple{decode, batch, positions};
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  return cache_[key] = phase_time(decode, batch, positions);
}

// The phase at `seqs` sequences of `tokens / seqs` positions each (rounded up), interpolated
// over the four bucket edges around it, or simulated there when exact.
double PlanTimes::phase_at(bool decode, std::int64_t seqs, std::int64_t tokens, bool exact) {
  if (seqs == 0) return 0;
  const std::int64_t positions = std::max<std::int64_t>(1, (tokens + seqs - 1) / seqs);
  if (exact) return phase_time(decode, seqs, positions);
  const auto [b0, b1] = edges(seqs, std::numeric_limits<std::int64_t>::max());
  const auto [p0, p1] = edges(positions, positions_);
  const double at_b0 = between(p0, p1, positions, cached(decode, b0, p0), cached(decode, b0, p1));
  const double at_b1 = between(p0, p1, positions, cached(decode, b1, p0), cached(decode, b1, p1));
  return between(b0, b1, seqs, at_b0, at_b1);
}

double PlanTimes::operator()(const IterationShape& s) {
  ++lookups_;
  return phase_at(false, s.prefill_seqs, s.prefill_tokens, false) + phase_at(true, s.decode_seqs, s.decode_context, false);
}

double PlanTimes::exact(const IterationShape& s) {
  return phase_at(false, s.prefill_seqs, s.prefill_tokens, true) + phase_at(true, s.decode_seqs, s.decode_context, true);
}

}  // namespace placesim::explore
