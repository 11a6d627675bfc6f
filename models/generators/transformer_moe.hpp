// The expert load of a mixture-of-experts step: how many of its tokens each layer routes to each
// expert.
//
// Sampled (the default): each token of each layer picks top_k distinct experts uniformly, as a
// router with no preference would (the balance its auxiliary loss trains for). The draws come
// from std::mt19937_64(seed) mapped by uniform_index (portable_random.hpp), so a seed gives the
// same loads on every platform: layer by layer, token by token, each token's experts by the first
// top_k steps of a Fisher-Yates shuffle of 0 .. experts-1 (draw i picks among experts - i).
// Given: per-expert token counts, one list for every layer or one list per layer; each sums to
// tokens x top_k and no count exceeds tokens (a token uses an expert once).
#pragma once

#include <random>
#include <vector>

#include "models/generators/transformer.hpp"

namespace placesim::models {

// Tokens a step processes: batch x seq for prefill, batch for decode (one new token each).
long step_tokens(const TransformerSpec& spec);
// spec.top_k, or the architecture's when 0.
int top_k_of(const TransformerArch& arch, const TransformerSpec& spec);

// The experts of `tokens` tokens, token after token, top_k distinct ones each, in draw order.
std::vector<int> route_tokens(std::mt19937_64& rng, int experts, int top_k, long tokens);

// InputError (no location) naming what is wrong with one layer's given load.
void check_expert_load(const std::vector<long>& load, int experts, int top_k, long tokens);

// Tokens per expert of each of the `layers` layers: spec.expert_load or sampled from spec.seed.
// InputError (no location) for a top_k outside 1 .. experts or a given load check_expert_load
// rejects, or a list of lists whose length is not `layers`.
std::vector<std::vector<long>> expert_loads(const TransformerArch& arch, const TransformerSpec& spec, int layers);

}  // namespace placesim::models
