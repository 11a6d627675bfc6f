// A whole generation as one scenario point: the prefill of `input` prompt tokens, which yields
// the first output token, then `output - 1` decode steps, each yielding one more token while the
// KV cache grows by one position.
//
// Counting: decode step j (j = 1 .. output-1) feeds the j-th generated token and attends over
// kv = input + j positions (its own K/V in the last slot), so the steps run at kv = input + 1 ..
// input + output - 1 and the last one holds the largest KV cache.
//
// Stride. Simulating every step of a long generation costs one simulation per token. With
// kv_stride s, the steps are cut into consecutive blocks of s from the first (the last block may
// be shorter) and only each block's last step is simulated, standing for every step of its
// block. The final step is therefore always simulated, so memory is always checked at the largest
// KV cache; and since a step's time does not decrease as the KV cache grows, the strided total
// is never below the exact one. s = 1 simulates every step: exact.
#pragma once

#include <functional>
#include <vector>

#include "models/graph.hpp"

namespace placesim::models {

struct DecodeStep {
  int kv = 0;     // positions attended, the new token's included
  int count = 0;  // decode steps this simulated step stands for (its block's length)
};

// The steps to simulate, in order; empty when output is 1 (the prefill's token is the only one).
std::vector<DecodeStep> decode_steps(int input, int output, int kv_stride);

struct Generation {
  int input = 1;      // prompt tokens: the prefill's sequence length
  int output = 1;     // generated tokens, the prefill's included
  int kv_stride = 1;  // 1: every decode step simulated
  Graph prefill;
  // The decode step that attends over `kv` positions. Its node names and indices do not depend
  // on kv (only costs and the KV cache's size do), so one plan serves every step.
  std::function<Graph(int kv)> decode;
};

}  // namespace placesim::models
