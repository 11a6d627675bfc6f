// The serving loop against what can be worked without it: queueing closed forms, a stream below
// capacity, a 3-request example with a preemption worked by hand (docs/execution.md, "Serving a
// request stream"), chunked prefill by hand, and the KV invariant over random streams.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "app/explore/serving/serving_loop.hpp"
#include "app/explore/serving/serving_metrics.hpp"

namespace {

using namespace placesim;
using explore::Batching;
using explore::IterationShape;
using explore::ServingConfig;
using models::Request;

explore::IterationTime fixed(double seconds) {
  return [seconds](const IterationShape&) { return seconds; };
}

// M/D/1: one server, Poisson arrivals at rate lambda, a fixed service time D: the mean wait in the
// queue is rho D / (2 (1 - rho)), rho = lambda D (Pollaczek-Khinchine with no service variance).
// Batches of one that generate one token are exactly that: each request is one prefill iteration.
TEST(ServingLoop, BatchesOfOneWaitAsMD1) {
  const double d = 0.01;
  for (double rho : {0.3, 0.5, 0.7}) {
    models::RequestSpec spec;
    spec.rate = rho / d;
    spec.count = 100'000;
    spec.seed = 7;
    const std::vector<Request> reqs = models::make_requests(spec);
    ServingConfig cfg;
    cfg.policy = Batching::Static;
    cfg.max_batch = 1;
    cfg.kv_blocks = 1;
    const explore::ServingTrace t = explore::serve(reqs, cfg, fixed(d));
    double wait = 0;
    for (const explore::RequestTimes& r : t.requests) wait += r.first_token_s - d - r.arrival_s;
    wait /= static_cast<double>(reqs.size());
    const double expected = rho * d / (2 * (1 - rho));
    EXPECT_NEAR(wait, expected, 0.02 * expected) << "rho " << rho;
    RecordProperty("md1_rho_" + std::to_string(static_cast<int>(rho * 10)), std::to_string(wait / expected - 1));
  }
}

// Arrivals every 1.5 iterations: each request finds the replica idle and waits for nothing.
TEST(ServingLoop, DeterministicArrivalsBelowCapacityNeverWait) {
  std::vector<Request> reqs;
  for (int i = 0; i < 50; ++i) reqs.push_back({1.5 * i, 8, 1});
  for (Batching policy : {Batching::Static, Batching::Continuous, Batching::Chunked}) {
    ServingConfig cfg;
    cfg.policy = policy;
    cfg.kv_blocks = 1;
    cfg.block_tokens = 16;
    const explore::ServingTrace t = explore::serve(reqs, cfg, fixed(1.0));
    for (size_t i = 0; i < reqs.size(); ++i) EXPECT_DOUBLE_EQ(t.requests[i].first_token_s, reqs[i].arrival_s + 1.0);
  }
}

// Arrivals every 0.75 iterations overload one replica: request i waits 0.25 i iterations (each
// arrives 0.75 after the one before and starts 1 after it). Dealt round-robin to two replicas,
// each sees one every 1.5 iterations and nobody waits.
TEST(ServingLoop, TwoReplicasDealtRoundRobinServeWhatOneCannot) {
  std::vector<Request> reqs;
  for (int i = 0; i < 40; ++i) reqs.push_back({0.75 * i, 8, 1});
  ServingConfig cfg;
  cfg.max_batch = 1;
  cfg.kv_blocks = 1;
  const explore::ServingTrace one = explore::serve_replicas(reqs, cfg, 1, fixed(1.0));
  const explore::ServingTrace two = explore::serve_replicas(reqs, cfg, 2, fixed(1.0));
  for (size_t i = 0; i < reqs.size(); ++i) {
    EXPECT_NEAR(one.requests[i].first_token_s - reqs[i].arrival_s, 1.0 + 0.25 * static_cast<double>(i), 1e-12) << i;
    EXPECT_DOUBLE_EQ(two.requests[i].first_token_s, reqs[i].arrival_s + 1.0) << i;
  }
  EXPECT_EQ(two.iterations, 40);
  EXPECT_DOUBLE_EQ(two.busy_s, 40.0);
  EXPECT_EQ(two.peak_blocks, 1);
}

// docs/execution.md's example, worked by hand there: blocks of 2 tokens, 3 blocks, 1 s per
// iteration. A (t 0, prompt 3, output 3) and B (t 0, prompt 2, output 2) prefill in [0, 1];
// at 1 B's decode needs a third block, B is the latest admitted and is preempted, so only A
// decodes in [1, 2]; at 2 A takes the last block, and B (3 tokens to prefill again: 2 blocks)
// blocks C (arrived 1.5) behind it; A ends at 3; B and C prefill in [3, 4] and both end at 4.
TEST(ServingLoop, ThreeRequestsWithAPreemptionAsWorkedByHand) {
  const std::vector<Request> reqs = {{0, 3, 3}, {0, 2, 2}, {1.5, 2, 1}};
  ServingConfig cfg;
  cfg.block_tokens = 2;
  cfg.kv_blocks = 3;
  std::vector<IterationShape> shapes;
  const explore::ServingTrace t =
      explore::serve(reqs, cfg, fixed(1.0), [&](const explore::IterationEvent& e) { shapes.push_back(e.shape); });
  ASSERT_EQ(t.requests.size(), 3u);
  EXPECT_DOUBLE_EQ(t.requests[0].first_token_s, 1);
  EXPECT_DOUBLE_EQ(t.requests[0].finish_s, 3);
  EXPECT_DOUBLE_EQ(t.requests[1].first_token_s, 1);
  EXPECT_DOUBLE_EQ(t.requests[1].finish_s, 4);
  EXPECT_EQ(t.requests[1].preemptions, 1);
  EXPECT_DOUBLE_EQ(t.requests[2].first_token_s, 4);
  EXPECT_DOUBLE_EQ(t.requests[2].finish_s, 4);
  EXPECT_EQ(t.iterations, 4);
  EXPECT_EQ(t.preemptions, 1);
  EXPECT_EQ(t.peak_blocks, 3);
  // Iteration shapes: both prompts; A's decode (context 4); A's decode (context 5); B again (2 + 1
  // tokens) and C.
  const std::vector<IterationShape> expected = {{5, 2, 0, 0}, {0, 0, 1, 4}, {0, 0, 1, 5}, {5, 2, 0, 0}};
  EXPECT_EQ(shapes, expected);
  const explore::ServingMetrics m = explore::serving_metrics(reqs, t, cfg, {.ttft_s = 2.0, .tpot_s = {}});
  EXPECT_DOUBLE_EQ(m.ttft.p50, 1);    // TTFTs 1, 1, 2.5
  EXPECT_DOUBLE_EQ(m.ttft.p99, 2.5);
  EXPECT_DOUBLE_EQ(m.e2e.mean, (3 + 4 + 2.5) / 3);
  EXPECT_DOUBLE_EQ(m.slo_attainment, 2.0 / 3);
  EXPECT_DOUBLE_EQ(m.requests_per_s, 3.0 / 4);  // three requests from t 0 to 4
}

// Chunked prefill, worked by hand: a budget of 4 tokens per iteration, 1 s each. R1 (t 0, prompt
// 10, output 2) prefills 4 in [0, 1] and 4 in [1, 2] (R2, arrived at 0.5, finds no budget left);
// in [2, 3] R1's last 2 and R2's first 2 of 3; R1's first token at 3. In [3, 4] R1 decodes (1 token
// of the budget, context 11) and R2 prefills its last token: both end at 4.
TEST(ServingLoop, ChunkedPrefillSplitsPromptsByTheBudget) {
  const std::vector<Request> reqs = {{0, 10, 2}, {0.5, 3, 1}};
  ServingConfig cfg;
  cfg.policy = Batching::Chunked;
  cfg.token_budget = 4;
  cfg.block_tokens = 1;
  cfg.kv_blocks = 64;
  std::vector<IterationShape> shapes;
  const explore::ServingTrace t =
      explore::serve(reqs, cfg, fixed(1.0), [&](const explore::IterationEvent& e) { shapes.push_back(e.shape); });
  const std::vector<IterationShape> expected = {{4, 1, 0, 0}, {4, 1, 0, 0}, {4, 2, 0, 0}, {1, 1, 1, 11}};
  EXPECT_EQ(shapes, expected);
  EXPECT_DOUBLE_EQ(t.requests[0].first_token_s, 3);
  EXPECT_DOUBLE_EQ(t.requests[0].finish_s, 4);
  EXPECT_DOUBLE_EQ(t.requests[1].first_token_s, 4);
  EXPECT_DOUBLE_EQ(t.requests[1].finish_s, 4);
}

// Over random streams, for each policy: no iteration holds more blocks than the replica has, every
// request ends, and its times are in order.
TEST(ServingLoop, NeverExceedsTheKvBlocksOverRandomStreams) {
  std::int64_t preempted = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (Batching policy : {Batching::Static, Batching::Continuous, Batching::Chunked}) {
      models::RequestSpec spec;
      spec.rate = 50;
      spec.count = 300;
      spec.seed = seed;
      spec.prompt = {models::TokenDist::Kind::Uniform, 1, 200, 1};
      spec.output = {models::TokenDist::Kind::Uniform, 1, 100, 1};
      const std::vector<Request> reqs = models::make_requests(spec);
      ServingConfig cfg;
      cfg.policy = policy;
      cfg.max_batch = 16;
      cfg.token_budget = 64;
      cfg.block_tokens = 16;
      cfg.kv_blocks = 40;
      const auto time = [](const IterationShape& s) {
        return 1e-3 + 1e-5 * static_cast<double>(s.prefill_tokens) + 1e-7 * static_cast<double>(s.decode_context);
      };
      const explore::ServingTrace t = explore::serve(reqs, cfg, time, [&](const explore::IterationEvent& e) {
        const IterationShape& s = e.shape;
        ASSERT_LE(e.blocks, cfg.kv_blocks);
        ASSERT_LE(s.prefill_seqs + s.decode_seqs, cfg.max_batch);
        if (policy == Batching::Chunked) {
          ASSERT_LE(s.prefill_tokens + s.decode_seqs, std::max<std::int64_t>(cfg.token_budget, s.decode_seqs));
        }
      });
      for (size_t i = 0; i < reqs.size(); ++i) {
        const explore::RequestTimes& r = t.requests[i];
        ASSERT_GT(r.first_token_s, r.arrival_s) << "seed " << seed << " request " << i;
        ASSERT_GE(r.finish_s, r.first_token_s);
      }
      EXPECT_LE(t.peak_blocks, cfg.kv_blocks);
      preempted += t.preemptions;
    }
  EXPECT_GT(preempted, 0) << "no stream ran the cache short: the invariant was not tested under pressure";
}

TEST(ServingLoop, ARequestLargerThanTheCacheIsRefused) {
  ServingConfig cfg;
  cfg.block_tokens = 16;
  cfg.kv_blocks = 4;  // 64 tokens
  try {
    explore::serve({{0, 10, 5}, {0, 60, 6}}, cfg, fixed(1));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("request 2 (prompt 60, output 6 tokens) needs 5 KV blocks of 16 tokens"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(explore::parse_batching("greedy"), InputError);
}

}  // namespace
