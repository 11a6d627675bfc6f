// A replica serving a request stream (docs/execution.md, "Serving a request stream"): requests
// arrive, a batching policy forms each iteration from them, a paged KV cache bounds what runs,
// and each iteration lasts what the replica's placed plan takes for that batch shape
// (IterationTime). One event per iteration, in the engine's seconds; no second simulator.
//
// A sequence's KV cache holds its prompt tokens once prefilled and each generated token once it
// is fed back (the last generated token is never fed back), in blocks of block_tokens. A prefill
// that completes a sequence's prompt produces its first token; each decode iteration produces the
// next. A sequence preempted for lack of blocks gives all its blocks back and waits at the head of
// the queue; when admitted again it prefills its prompt and the tokens it generated so far
// (recompute, as vLLM does) and that prefill produces its next token.
//
// Policies (Batching):
//   static      when the replica is idle, up to max_batch waiting requests whose whole length
//               fits the free blocks form a batch: one prefill iteration, then decode iterations
//               until the batch's last sequence ends; nothing joins meanwhile.
//   continuous  (Orca, vLLM) each iteration runs one decode step of every running sequence,
//               growing its cache by one token, the latest admitted preempted while blocks run
//               short; then, if none was preempted, admits waiting requests in arrival order while
//               the batch has room and their prompts fit the free blocks, and prefills them whole
//               in the same iteration.
//   chunked     (Sarathi-Serve) as continuous, but an iteration processes at most token_budget
//               tokens: the decodes first (one each), then prompt chunks, the sequences already
//               prefilling first, a chunk's blocks allocated as it is prefilled.
// Admission is in arrival order: a request that does not fit blocks those behind it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/request_stream.hpp"

namespace placesim::explore {

// What one iteration computes: the replica's plan is simulated for this shape.
struct IterationShape {
  std::int64_t prefill_tokens = 0;  // prompt tokens prefilled, over every prefilling sequence
  int prefill_seqs = 0;
  int decode_seqs = 0;              // sequences generating one token each
  std::int64_t decode_context = 0;  // tokens the decodes attend to: their caches, summed
  bool operator==(const IterationShape&) const = default;
};
using IterationTime = std::function<double(const IterationShape&)>;

// One iteration as it ran: its shape, the KV blocks held during it, when it started and how long
// it lasted, and on which replica (serve_replicas; 0 for serve).
struct IterationEvent {
  IterationShape shape;
  std::int64_t blocks = 0;
  double start_s = 0, seconds = 0;
  int replica = 0;
};
using IterationObserver = std::function<void(const IterationEvent&)>;

enum class Batching { Static, Continuous, Chunked };
Batching parse_batching(const std::string& name);  // InputError (no location) listing the three

struct ServingConfig {
  Batching policy = Batching::Continuous;
  int max_batch = 256;               // sequences in one iteration
  std::int64_t token_budget = 512;   // chunked: tokens per iteration
  std::int64_t block_tokens = 16;    // tokens per KV block
  std::int64_t kv_blocks = 0;        // blocks the replica's free memory holds
};

// One request's life: when it arrived, produced its first token and ended.
struct RequestTimes {
  double arrival_s = 0, first_token_s = 0, finish_s = 0;
  int preemptions = 0;
};

struct ServingTrace {
  std::vector<RequestTimes> requests;  // in the stream's order
  std::int64_t iterations = 0;
  std::int64_t preemptions = 0;
  std::int64_t peak_blocks = 0;        // most KV blocks held at once (<= kv_blocks)
  double busy_s = 0;                   // time spent in iterations
  double block_seconds = 0;            // integral of blocks held over time: mean use = this / span
};

// The first request whose prompt and output need more KV blocks than the replica has (it could
// never finish), in words ("request 2 (prompt 60, output 6 tokens) needs ..."), or "".
std::string unfit_request(const std::vector<models::Request>& requests, const ServingConfig& config);

// Serves the stream. InputError (no location) with unfit_request's words, or for a config value
// out of range (max_batch, token_budget, block_tokens, kv_blocks < 1). `observe`, when given, sees every
// iteration as it ends (tests check invariants with it; a stream trace draws it).
ServingTrace serve(const std::vector<models::Request>& requests, const ServingConfig& config,
                   const IterationTime& iteration_time, const IterationObserver& observe = nullptr);

// The stream served by `replicas` identical replicas, request i dealt to replica i mod replicas
// (round-robin: a router that does not look at the replicas' load). Each replica serves its share
// alone; the traces merge with the requests in the stream's order, iterations, preemptions and
// busy and block seconds summed, and the peak blocks one replica's.
ServingTrace serve_replicas(const std::vector<models::Request>& requests, const ServingConfig& config, int replicas,
                            const IterationTime& iteration_time, const IterationObserver& observe = nullptr);

}  // namespace placesim::explore
