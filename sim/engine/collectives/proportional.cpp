#include "sim/engine/collectives/proportional.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <string>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"

namespace placesim::engine {

namespace {

// The slices of the senders' and of the receivers' weights.
std::pair<std::vector<double>, std::vector<double>> sides(const CollectiveSpec& spec, const std::vector<double>& w) {
  const auto split = w.begin() + spec.senders;
  return {proportional_slices(spec.bytes, {w.begin(), split}), proportional_slices(spec.bytes, {split, w.end()})};
}

const std::vector<double>& checked_weights(const CollectiveSpec& spec) {
  check_senders(spec);
  if (spec.weights.size() != spec.group.size()) {
    throw InputError(fmt::format("collective '{}': proportional needs one weight per rank ({}), got {}", spec.name,
                                 spec.group.size(), spec.weights.size()));
  }
  for (double w : spec.weights) {
    if (!(w > 0) || !std::isfinite(w)) {
      throw InputError(fmt::format("collective '{}': weights must be positive and finite, got {}", spec.name, w));
    }
  }
  return spec.weights;
}

}  // namespace

void check_senders(const CollectiveSpec& spec) {
  if (spec.senders < 1 || spec.senders >= static_cast<int>(spec.group.size())) {
    throw InputError(fmt::format("collective '{}': point-to-point needs 1 <= senders < {} (the group size), got {}",
                                 spec.name, spec.group.size(), spec.senders));
  }
}

std::vector<double> proportional_slices(double bytes, const std::vector<double>& weights) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<double> s;
  for (double w : weights) s.push_back(bytes * w / total);
  return s;
}

void lower_point_to_point(Lowering& low, const std::vector<double>& weights) {
  const CollectiveSpec& spec = low.spec();
  const int n = low.ranks(), p = spec.senders, k = low.chunks();
  const auto [out, in] = sides(spec, weights);
  for (int c = 0; c < k; ++c) {
    for (int i = 0; i < p; ++i) {
      for (int j = p; j < n; ++j) {
        const double bytes = out[i] * in[j - p] / spec.bytes;  // S (w_i/W_P) (w_j/W_Q)
        low.send(i, j, bytes / k, {}, fmt::format("c{}", c));
      }
    }
  }
}

double point_to_point_analytic(const CollectiveSpec& spec, const Network& net, const std::vector<double>& weights) {
  const int n = static_cast<int>(spec.group.size());
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < spec.senders; ++i) {
    for (int j = spec.senders; j < n; ++j) pairs.emplace_back(i, j);
  }
  const AlphaBeta w = worst_pair(spec, net, pairs);
  const auto [out, in] = sides(spec, weights);
  const double busiest = std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
  return spec.chunks * w.latency_s + busiest / w.bandwidth;
}

void register_proportional(Registry<CollectiveAlgorithm>& r) {
  r.add("proportional",
        {"capability-proportional point-to-point (AsymGroup V-B): slices in proportion to per-rank weights, sent "
         "directly from each sender to each receiver",
         {CollectiveOp::PointToPoint},
         [](Lowering& low) { lower_point_to_point(low, checked_weights(low.spec())); },
         [](const CollectiveSpec& spec, const Network& net) {
           return point_to_point_analytic(spec, net, checked_weights(spec));
         }});
}

}  // namespace placesim::engine
