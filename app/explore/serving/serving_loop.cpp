#include "app/explore/serving/serving_loop.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::explore {
namespace {

// A request once it has arrived: where its cache and its generation stand.
struct Seq {
  int req = -1;
  std::int64_t kv = 0;         // tokens in its KV cache
  std::int64_t pending = 0;    // tokens still to prefill (its prompt, or prompt and output after a preemption)
  std::int64_t generated = 0;  // tokens produced so far
  std::int64_t held = 0;       // blocks it holds (static: its whole length, reserved at admission)
  std::int64_t chunk = 0;      // prompt tokens it prefills in this iteration
  bool decoding = false;       // it decodes in this iteration
};

class Replica {
 public:
  Replica(const std::vector<models::Request>& requests, const ServingConfig& config, const IterationTime& time,
          const IterationObserver& observe)
      : reqs_(requests), cfg_(config), time_(time), observe_(observe), free_(config.kv_blocks) {
    trace_.requests.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) trace_.requests[i].arrival_s = requests[i].arrival_s;
  }

  ServingTrace run() {
    while (finished_ < reqs_.size()) {
      arrive();
      if (running_.empty() && waiting_.empty()) {
        now_ = std::max(now_, reqs_[next_].arrival_s);
        continue;
      }
      IterationShape shape = cfg_.policy == Batching::Static ? form_static() : form_continuous();
      PLACESIM_ASSERT(shape.prefill_seqs + shape.decode_seqs > 0, "an iteration with nothing to run");
      end_iteration(shape);
    }
    return std::move(trace_);
  }

 private:
  std::int64_t blocks(std::int64_t tokens) const { return (tokens + cfg_.block_tokens - 1) / cfg_.block_tokens; }

  void arrive() {
    while (next_ < reqs_.size() && reqs_[next_].arrival_s <= now_) {
      Seq s;
      s.req = static_cast<int>(next_);
      s.pending = reqs_[next_++].prompt;
      waiting_.push_back(s);
    }
  }

  // Static: a batch forms only when the replica is idle; its blocks are the whole length.
  IterationShape form_static() {
    IterationShape shape;
    if (running_.empty()) {
      while (!waiting_.empty() && static_cast<int>(running_.size()) < cfg_.max_batch) {
        Seq s = waiting_.front();
        const models::Request& r = reqs_[s.req];
        const std::int64_t need = blocks(r.prompt + r.output - 1);
        if (need > free_) break;
        waiting_.pop_front();
        take(s, need);
        prefill(s, s.pending, shape);
        running_.push_back(s);
      }
      return shape;
    }
    for (Seq& s : running_) decode(s, shape);
    return shape;
  }

  // Continuous and chunked: decodes first, preempting while blocks run short, then prefills.
  IterationShape form_continuous() {
    IterationShape shape;
    bool preempted = false;
    for (size_t i = 0; i < running_.size(); ++i) {
      Seq& s = running_[i];
      if (s.pending > 0) continue;  // still prefilling (chunked)
      const std::int64_t need = blocks(s.kv + 1) - s.held;
      while (need > free_ && i < running_.size()) {
        preempt_last();
        preempted = true;
      }
      if (i >= running_.size()) break;  // it was the latest: preempted itself
      take(running_[i], need);
      decode(running_[i], shape);
    }
    if (preempted) return shape;
    std::int64_t budget = cfg_.policy == Batching::Chunked
                              ? std::max<std::int64_t>(0, cfg_.token_budget - shape.decode_seqs)
                              : std::numeric_limits<std::int64_t>::max();
    for (Seq& s : running_)  // chunked: the sequences already prefilling go on first
      if (s.pending > 0 && budget > 0 && !grow_prefill(s, budget, shape)) return shape;
    while (!waiting_.empty() && budget > 0 && static_cast<int>(running_.size()) < cfg_.max_batch) {
      Seq s = waiting_.front();
      if (!grow_prefill(s, budget, shape)) break;
      waiting_.pop_front();
      running_.push_back(s);
    }
    return shape;
  }

  // Prefills as much of s's pending prompt as the budget allows, if its blocks fit.
  bool grow_prefill(Seq& s, std::int64_t& budget, IterationShape& shape) {
    const std::int64_t chunk = std::min(s.pending, budget);
    const std::int64_t need = blocks(s.kv + chunk) - s.held;
    if (need > free_) return false;
    take(s, need);
    prefill(s, chunk, shape);
    budget -= chunk;
    return true;
  }

  void take(Seq& s, std::int64_t blocks) {
    free_ -= blocks;
    s.held += blocks;
    PLACESIM_ASSERT(free_ >= 0, "KV blocks over the replica's");
  }

  void prefill(Seq& s, std::int64_t tokens, IterationShape& shape) {
    s.chunk = tokens;
    s.kv += tokens;
    s.pending -= tokens;
    shape.prefill_tokens += tokens;
    ++shape.prefill_seqs;
  }

  void decode(Seq& s, IterationShape& shape) {
    s.decoding = true;
    ++s.kv;
    ++shape.decode_seqs;
    shape.decode_context += s.kv;
  }

  // The latest admitted sequence gives its blocks back and waits at the head of the queue, to
  // prefill its prompt and what it generated again.
  void preempt_last() {
    Seq s = running_.back();
    running_.pop_back();
    free_ += s.held;
    s.held = s.kv = 0;
    s.pending = reqs_[s.req].prompt + s.generated;
    ++trace_.requests[s.req].preemptions;
    ++trace_.preemptions;
    waiting_.push_front(s);
  }

  void end_iteration(const IterationShape& shape) {
    const double t = time_(shape);
    PLACESIM_ASSERT(std::isfinite(t) && t > 0, fmt::format("an iteration time of {} s", t));
    const std::int64_t held = cfg_.kv_blocks - free_;
    if (observe_) observe_({shape, held, now_, t, 0});
    trace_.peak_blocks = std::max(trace_.peak_blocks, held);
    trace_.block_seconds += static_cast<double>(held) * t;
    trace_.busy_s += t;
    ++trace_.iterations;
    now_ += t;
    std::vector<Seq> still;
    for (Seq& s : running_) {
      const bool produced = s.decoding || (s.chunk > 0 && s.pending == 0);
      s.decoding = false;
      s.chunk = 0;
      if (produced && s.generated++ == 0) trace_.requests[s.req].first_token_s = now_;
      if (s.generated < reqs_[s.req].output) {
        still.push_back(s);
        continue;
      }
      trace_.requests[s.req].finish_s = now_;
      free_ += s.held;
      ++finished_;
    }
    running_ = std::move(still);
  }

  const std::vector<models::Request>& reqs_;
  const ServingConfig& cfg_;
  const IterationTime& time_;
  const IterationObserver& observe_;
  ServingTrace trace_;
  double now_ = 0;
  size_t next_ = 0, finished_ = 0;
  std::int64_t free_;
  std::deque<Seq> waiting_;
  std::vector<Seq> running_;  // in admission order
};

}  // namespace

Batching parse_batching(const std::string& name) {
  if (name == "static") return Batching::Static;
  if (name == "continuous") return Batching::Continuous;
  if (name == "chunked") return Batching::Chunked;
  throw InputError("batching must be static, continuous or chunked; got " + name);
}

std::string unfit_request(const std::vector<models::Request>& requests, const ServingConfig& config) {
  for (size_t i = 0; i < requests.size(); ++i) {
    const models::Request& r = requests[i];
    const std::int64_t need = (r.prompt + r.output - 1 + config.block_tokens - 1) / config.block_tokens;
    if (need > config.kv_blocks)
      return fmt::format("request {} (prompt {}, output {} tokens) needs {} KV blocks of {} tokens; the replica's "
                         "memory holds {}",
                         i + 1, r.prompt, r.output, need, config.block_tokens, config.kv_blocks);
  }
  return "";
}

ServingTrace serve(const std::vector<models::Request>& requests, const ServingConfig& config,
                   const IterationTime& iteration_time,
                   const IterationObserver& observe) {
  if (config.max_batch < 1 || config.token_budget < 1 || config.block_tokens < 1 || config.kv_blocks < 1)
    throw InputError(fmt::format("max_batch, token_budget, block_tokens and kv_blocks must be >= 1; got {}, {}, {}, {}",
                                 config.max_batch, config.token_budget, config.block_tokens, config.kv_blocks));
  if (const std::string unfit = unfit_request(requests, config); !unfit.empty()) throw InputError(unfit);
  return Replica(requests, config, iteration_time, observe).run();
}

ServingTrace serve_replicas(const std::vector<models::Request>& requests, const ServingConfig& config, int replicas,
                            const IterationTime& iteration_time, const IterationObserver& observe) {
  if (replicas < 1) throw InputError(fmt::format("replicas must be at least 1; got {}", replicas));
  if (replicas == 1) return serve(requests, config, iteration_time, observe);
  ServingTrace all;
  all.requests.resize(requests.size());
  for (int k = 0; k < replicas; ++k) {
    std::vector<models::Request> share;
    for (size_t i = static_cast<size_t>(k); i < requests.size(); i += static_cast<size_t>(replicas)) share.push_back(requests[i]);
    if (share.empty()) continue;
    const IterationObserver on_replica = [&](const IterationEvent& e) {
      IterationEvent at = e;
      at.replica = k;
      observe(at);
    };
    const ServingTrace t = serve(share, config, iteration_time, observe ? on_replica : IterationObserver());
    for (size_t j = 0; j < share.size(); ++j) all.requests[static_cast<size_t>(k) + j * static_cast<size_t>(replicas)] = t.requests[j];
    all.iterations += t.iterations;
    all.preemptions += t.preemptions;
    all.peak_blocks = std::max(all.peak_blocks, t.peak_blocks);
    all.busy_s += t.busy_s;
    all.block_seconds += t.block_seconds;
  }
  return all;
}

}  // namespace placesim::explore
