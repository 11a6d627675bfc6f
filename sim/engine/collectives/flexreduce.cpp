// FlexReduce (Lee et al., DAC 2020; AsymGroup's Megatron-LM baseline, section VI): an all-reduce
// for nodes with different numbers of GPUs, which gives each rank (learner) an uneven portion of
// the buffer and moves every byte across each node's network link once each way.
//
// Rank j owns the portion p_j = S w_j / W of the S bytes (W: the sum of the weights); w_j is its
// `weights` entry, or 1 / m_a on a node of m_a ranks, so that every node owns an equal share and
// every node's link carries the same. Node a's weight W_a is the sum of its ranks'; rank l of
// node a looks after the slice w_l / W_a of the buffer. Per chunk, each rank's step waiting for
// what it received in the step before:
//   1. inside each node, a reduce-scatter of the slices: rank l receives from each node-mate its
//      slice of the buffer, S w_l / W_a (none on a node of one rank);
//   2. every rank i of node a sends every other rank j its node's sum of j's portion within its
//      slice, p_j w_i / W_a: j then holds its portion reduced over all ranks;
//   3. every rank j sends every other rank l of node b its slice of j's reduced portion,
//      p_j w_l / W_b;
//   4. inside each node, an all-gather of the slices: rank l sends each node-mate l' the rest of
//      its slice, (S - p_l') w_l / W_b.
// Node a then sends S (W - W_a) / W over its network link in step 2 and (N - 1) S W_a / W in
// step 3 (N nodes), and receives the same two the other way round: with equal shares
// 2 (N - 1) S / N each way, whatever its GPU count, where a ring over all n ranks puts
// 2 (n - 1) S / n through every node's link.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <string>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/direct.hpp"
#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

namespace {

struct Shares {
  std::vector<int> node;        // per rank: its node, numbered from 0
  std::vector<double> weight;   // per rank: w
  std::vector<double> node_weight;  // per node: W_a
  double total = 0;             // W
};

Shares shares_of(const CollectiveSpec& spec) {
  const std::size_t n = spec.group.size();
  if (spec.nodes.size() != n)
    throw InputError(fmt::format("collective '{}': flexreduce needs a node per rank ({}), got {}", spec.name, n,
                                 spec.nodes.size()));
  if (!spec.weights.empty() && spec.weights.size() != n)
    throw CollectiveOptionError("weights", fmt::format("collective '{}': flexreduce takes no `weights` or one per "
                                                       "rank ({}), got {}",
                                                       spec.name, n, spec.weights.size()));
  for (double w : spec.weights)
    if (!(w > 0) || !std::isfinite(w))
      throw CollectiveOptionError("weights", fmt::format("collective '{}': `weights` must be positive and finite, "
                                                         "got {}",
                                                         spec.name, w));
  Shares s;
  std::vector<int> ids;  // node ids in order of first appearance
  std::vector<int> count;
  for (int id : spec.nodes) {
    const auto it = std::find(ids.begin(), ids.end(), id);
    s.node.push_back(static_cast<int>(it - ids.begin()));
    if (it == ids.end()) {
      ids.push_back(id);
      count.push_back(0);
    }
    ++count[s.node.back()];
  }
  s.node_weight.assign(ids.size(), 0.0);
  for (std::size_t r = 0; r < n; ++r) {
    const double w = spec.weights.empty() ? 1.0 / count[s.node[r]] : spec.weights[r];
    s.weight.push_back(w);
    s.node_weight[s.node[r]] += w;
    s.total += w;
  }
  return s;
}

void lower_flexreduce(Lowering& low) {
  const Shares s = shares_of(low.spec());
  const int n = low.ranks(), k = low.chunks();
  const double S = low.spec().bytes / k;  // per chunk
  std::vector<double> portion(n), slice(n);  // p_j, and w_l / W_a
  for (int r = 0; r < n; ++r) {
    portion[r] = S * s.weight[r] / s.total;
    slice[r] = s.weight[r] / s.node_weight[s.node[r]];
  }
  // One step: every rank sends as `bytes` says, after what it received in the step before (a
  // rank that received nothing in a step goes on from what it held). Each step on a channel of
  // its own, as each runs on a communicator of its own: with chunks, a pair's later step does
  // not queue behind every chunk of its earlier one, and the steps pipeline.
  ChunkDeps held = no_deps(n, k);
  int channel = 0;
  auto step = [&](const char* label, const char* start_label, const std::function<double(int, int)>& bytes) {
    ChunkDeps got = exchange(low, bytes, joined(low, held, start_label), label, channel++);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < k; ++c)
        if (got[r][c].empty()) got[r][c] = held[r][c];
    held = std::move(got);
  };
  const auto mates = [&](int i, int j) { return s.node[i] == s.node[j]; };
  step("rs", "", [&](int i, int j) { return mates(i, j) ? S * slice[j] : 0.0; });
  step("to-owner", "node-reduced", [&](int i, int j) { return portion[j] * slice[i]; });
  step("from-owner", "reduced", [&](int i, int j) { return portion[i] * slice[j]; });
  step("ag", "gathered", [&](int i, int j) { return mates(i, j) ? (S - portion[j]) * slice[i] : 0.0; });
}

}  // namespace

void register_flexreduce(Registry<CollectiveAlgorithm>& r) {
  r.add("flexreduce",
        {"FlexReduce (AsymGroup's Megatron-LM baseline): each rank owns an uneven portion of the buffer (`weights`, "
         "default 1/m on a node of m ranks: every node an equal share), reduced inside each node first and gathered "
         "inside each node last, so every byte crosses a node's network link once each way (needs a node per rank)",
         {CollectiveOp::AllReduce},
         lower_flexreduce,
         flow_alone_seconds,
         {},
         flow_alone_ends});
}

}  // namespace placesim::engine
