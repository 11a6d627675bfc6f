#include "sim/engine/collectives/proportional.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <string>

#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/direct.hpp"
#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

namespace {

using Ranks = std::vector<int>;

std::vector<double> of(const std::vector<double>& per_rank, const Ranks& ranks) {
  std::vector<double> v;
  for (int r : ranks) v.push_back(per_rank[r]);
  return v;
}

Ranks range(int from, int to) {
  Ranks r(to - from);
  std::iota(r.begin(), r.end(), from);
  return r;
}

const std::vector<double>& checked_weights(const CollectiveSpec& spec) {
  if (spec.weights.size() != spec.group.size()) {
    throw CollectiveOptionError("weights", fmt::format("collective '{}': proportional needs `weights`, one per rank "
                                                       "({}), got {}",
                                                       spec.name, spec.group.size(), spec.weights.size()));
  }
  for (double w : spec.weights) {
    if (!(w > 0) || !std::isfinite(w)) {
      throw CollectiveOptionError("weights", fmt::format("collective '{}': `weights` must be positive and finite, got {}",
                                                         spec.name, w));
    }
  }
  return spec.weights;
}

// G_t: the ranks of group t in rank order, for t = 0 .. m-1.
std::vector<Ranks> groups_of(const CollectiveSpec& spec) {
  const std::size_t n = spec.group.size();
  if (spec.groups.size() != n) {
    throw CollectiveOptionError("groups", fmt::format("collective '{}': proportional all-gather needs `groups`, a "
                                                      "group index per rank ({}), got {}",
                                                      spec.name, n, spec.groups.size()));
  }
  std::vector<Ranks> g;
  for (std::size_t r = 0; r < n; ++r) {
    const int t = spec.groups[r];
    if (t < 0) {
      throw CollectiveOptionError("groups", fmt::format("collective '{}': `groups` are numbered from 0, got {}",
                                                        spec.name, t));
    }
    if (t >= static_cast<int>(g.size())) g.resize(t + 1);
    g[t].push_back(static_cast<int>(r));
  }
  for (std::size_t t = 0; t < g.size(); ++t) {
    if (g[t].empty()) {
      throw CollectiveOptionError("groups", fmt::format("collective '{}': `groups` leaves group {} of 0..{} empty",
                                                        spec.name, t, g.size() - 1));
    }
  }
  return g;
}

// V_t = S C_t / W: the part each group starts with.
std::vector<double> parts_of(double bytes, const std::vector<Ranks>& groups, const std::vector<double>& w) {
  std::vector<double> capability;
  for (const Ranks& g : groups) {
    const std::vector<double> wg = of(w, g);
    capability.push_back(std::accumulate(wg.begin(), wg.end(), 0.0));
  }
  return proportional_slices(bytes, capability);
}

// The point-to-point of `volume` from ranks `from` to ranks `to`, sliced by capability on both
// sides; chunk c of sender from[i] waits for start[i][c]. Returns, per member of `to` and
// chunk, the transfers that brought it that chunk.
ChunkDeps sliced_sends(Lowering& low, const Ranks& from, const Ranks& to, double volume, const std::vector<double>& w,
                       const ChunkDeps& start, const std::string& label) {
  const int k = low.chunks();
  const std::vector<double> out = proportional_slices(volume, of(w, from)), in = proportional_slices(volume, of(w, to));
  ChunkDeps arrived = no_deps(to.size(), k);
  for (int c = 0; c < k; ++c) {
    for (std::size_t i = 0; i < from.size(); ++i) {
      for (std::size_t j = 0; j < to.size(); ++j) {
        const double bytes = out[i] * in[j] / volume;  // V (w_i/W_from) (w_j/W_to)
        arrived[j][c].push_back(low.send(from[i], to[j], bytes / k, start[i][c], fmt::format("{}c{}", label, c)));
      }
    }
  }
  return arrived;
}

void lower_reduce_scatter(Lowering& low, const std::vector<double>& w) {
  std::vector<double> share = proportional_slices(low.spec().bytes, w);
  for (double& b : share) b /= low.chunks();
  exchange(low, [&](int, int to) { return share[to]; }, {}, "x");
}

void lower_all_gather(Lowering& low, const std::vector<double>& w) {
  const std::vector<Ranks> g = groups_of(low.spec());
  const int m = static_cast<int>(g.size());
  const std::vector<double> part = parts_of(low.spec().bytes, g, w);
  ChunkDeps held = no_deps(low.ranks(), low.chunks());  // per rank and chunk: what it forwards next waits for
  for (int s = 0; s + 1 < m; ++s) {
    ChunkDeps next(held.size());  // every group receives at every step
    for (int t = 0; t < m; ++t) {
      const Ranks& to = g[(t + 1) % m];
      ChunkDeps start;
      for (int r : g[t]) start.push_back(held[r]);
      const ChunkDeps got = sliced_sends(low, g[t], to, part[(t - s + m) % m], w, start, fmt::format("s{}.", s));
      for (std::size_t j = 0; j < to.size(); ++j) next[to[j]] = got[j];
    }
    held = std::move(next);
  }
}

void lower_proportional(Lowering& low) {
  const CollectiveSpec& spec = low.spec();
  if (spec.op == CollectiveOp::PointToPoint) check_senders(spec);
  const std::vector<double>& w = checked_weights(spec);
  switch (spec.op) {
    case CollectiveOp::ReduceScatter: return lower_reduce_scatter(low, w);
    case CollectiveOp::AllGather: return lower_all_gather(low, w);
    default: return lower_point_to_point(low, w);
  }
}

}  // namespace

void check_senders(const CollectiveSpec& spec) {
  if (spec.senders < 1 || spec.senders >= static_cast<int>(spec.group.size())) {
    throw CollectiveOptionError("senders", fmt::format("collective '{}': point-to-point needs 1 <= senders < {} (the "
                                                       "group size), got {}",
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
  const int n = low.ranks(), p = low.spec().senders;
  sliced_sends(low, range(0, p), range(p, n), low.spec().bytes, weights, no_deps(p, low.chunks()), "");
}

void register_proportional(Registry<CollectiveAlgorithm>& r) {
  r.add("proportional",
        {"capability-proportional (AsymGroup V-B, V-C): data sliced in proportion to `weights` (one per rank); "
         "all-gather among `groups` (one per rank) on a ring of groups, each step sliced on both sides; "
         "reduce-scatter leaving each rank its share, all pairs at once; point-to-point from each sender to each "
         "receiver",
         {CollectiveOp::AllGather, CollectiveOp::ReduceScatter, CollectiveOp::PointToPoint},
         lower_proportional,
         flow_alone_seconds,
         {CollectiveOp::AllGather},
         flow_alone_ends,
         ideal_seconds});
}

}  // namespace placesim::engine
