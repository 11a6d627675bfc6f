// Samples or checks the expert load of a mixture-of-experts step (transformer_moe.hpp).
#include "models/generators/transformer_moe.hpp"

#include <fmt/format.h>
#include <numeric>

#include "models/generators/portable_random.hpp"

namespace placesim::models {

long step_tokens(const TransformerSpec& spec) {
  return static_cast<long>(spec.batch) * (spec.phase == Phase::Prefill ? spec.seq : 1);
}

int top_k_of(const TransformerArch& arch, const TransformerSpec& spec) {
  return spec.top_k > 0 ? spec.top_k : arch.moe.top_k;
}

std::vector<int> route_tokens(std::mt19937_64& rng, int experts, int top_k, long tokens) {
  std::vector<int> routes;
  routes.reserve(static_cast<size_t>(tokens) * top_k);
  std::vector<int> deck(experts);
  for (long t = 0; t < tokens; ++t) {
    // A fresh deck per token, so a token's draws depend on the seed and its position alone.
    std::iota(deck.begin(), deck.end(), 0);
    for (int i = 0; i < top_k; ++i) {
      const auto j = i + static_cast<int>(uniform_index(rng, static_cast<std::uint64_t>(experts - i)));
      std::swap(deck[i], deck[j]);
      routes.push_back(deck[i]);
    }
  }
  return routes;
}

void check_expert_load(const std::vector<long>& load, int experts, int top_k, long tokens) {
  if (static_cast<int>(load.size()) != experts)
    throw InputError(fmt::format("expected {} loads (one per expert), got {}", experts, load.size()));
  for (size_t e = 0; e < load.size(); ++e) {
    if (load[e] < 0) throw InputError(fmt::format("expert {}'s load {} is negative", e, load[e]));
    if (load[e] > tokens)
      throw InputError(fmt::format("expert {}'s load {} exceeds the {} tokens (a token uses an expert once)", e,
                                   load[e], tokens));
  }
  const long sum = std::accumulate(load.begin(), load.end(), 0L);
  if (sum != tokens * top_k)
    throw InputError(fmt::format("loads sum to {}; {} tokens x top {} route {}", sum, tokens, top_k, tokens * top_k));
}

std::vector<std::vector<long>> expert_loads(const TransformerArch& arch, const TransformerSpec& spec, int layers) {
  const int experts = arch.moe.experts, k = top_k_of(arch, spec);
  if (k < 1 || k > experts)
    throw InputError(fmt::format("top_k {} is not between 1 and {}'s {} experts", k, arch.name, experts));
  const long tokens = step_tokens(spec);
  std::vector<std::vector<long>> loads;
  if (spec.expert_load.empty()) {
    std::mt19937_64 rng(spec.seed);
    for (int l = 0; l < layers; ++l) {
      std::vector<long> load(experts, 0);
      for (int e : route_tokens(rng, experts, k, tokens)) ++load[e];
      loads.push_back(std::move(load));
    }
    return loads;
  }
  if (spec.expert_load.size() != 1 && static_cast<int>(spec.expert_load.size()) != layers)
    throw InputError(
        fmt::format("expected one load list for every layer or one per layer ({}), got {}", layers, spec.expert_load.size()));
  for (int l = 0; l < layers; ++l) {
    const std::vector<long>& load = spec.expert_load.size() == 1 ? spec.expert_load[0] : spec.expert_load[l];
    check_expert_load(load, experts, k, tokens);
    loads.push_back(load);
  }
  return loads;
}

}  // namespace placesim::models
