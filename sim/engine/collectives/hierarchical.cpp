// Hierarchical all-reduce (NCCL's intra-node / inter-node split, as in Horovod's and
// BlueConnect's schedules). With N nodes of m ranks each (nodes given per rank):
//   1. reduce-scatter on a ring inside each node: local rank l ends with shard l (S/m);
//   2. all-reduce of each shard on a ring across nodes, among the ranks of local index l
//      (m such rings at once);
//   3. all-gather on the ring inside each node.
// Each rank's phase p+1 starts once it has sent and received its last chunk of phase p. With
// intra-node links B_i, L_i and inter-node links B_e, L_e, none shared between the rings:
//   (m-1) (k L_i + S/(m B_i))  +  2 (N-1) (k L_e + S/(m N B_e))  +  (m-1) (k L_i + S/(m B_i))
// exact for k = 1 (for k > 1 the phases overlap a little and this is an upper bound).
#include <algorithm>
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/ring.hpp"

namespace placesim::engine {

namespace {

// by_node[a][l]: the rank of local index l on node a (nodes in order of first appearance).
std::vector<std::vector<int>> nodes_of(const CollectiveSpec& spec) {
  const std::size_t n = spec.group.size();
  if (spec.nodes.size() != n) {
    throw InputError(fmt::format("collective '{}': hierarchical needs a node per rank ({}), got {}", spec.name, n,
                                 spec.nodes.size()));
  }
  std::vector<int> ids;
  std::vector<std::vector<int>> by_node;
  for (std::size_t r = 0; r < n; ++r) {
    const auto it = std::find(ids.begin(), ids.end(), spec.nodes[r]);
    if (it == ids.end()) {
      ids.push_back(spec.nodes[r]);
      by_node.push_back({static_cast<int>(r)});
    } else {
      by_node[it - ids.begin()].push_back(static_cast<int>(r));
    }
  }
  for (std::size_t a = 1; a < by_node.size(); ++a) {
    if (by_node[a].size() != by_node[0].size()) {
      throw InputError(fmt::format("collective '{}': hierarchical needs as many ranks on every node; node {} has {}, "
                                   "node {} has {}", spec.name, ids[0], by_node[0].size(), ids[a], by_node[a].size()));
    }
  }
  return by_node;
}

void lower_hierarchical(Lowering& low) {
  const std::vector<std::vector<int>> by_node = nodes_of(low.spec());
  const int big_n = static_cast<int>(by_node.size()), m = static_cast<int>(by_node[0].size()), k = low.chunks();
  const double shard = low.spec().bytes / (static_cast<double>(m) * k);  // per chunk
  ChunkDeps at = no_deps(low.ranks(), k);  // [rank][chunk]
  const auto run = [&](const std::vector<int>& members, int steps, double bytes, const char* label) {
    ChunkDeps start;
    for (int r : members) start.push_back(at[r]);
    const ChunkDeps done = ring_steps(low, members, steps, bytes, start, label);
    for (std::size_t j = 0; j < members.size(); ++j) at[members[j]] = done[j];
  };
  for (const std::vector<int>& node : by_node) run(node, m - 1, shard, "intra-rs.");
  for (int l = 0; l < m; ++l) {
    std::vector<int> across;
    for (const std::vector<int>& node : by_node) across.push_back(node[l]);
    run(across, 2 * (big_n - 1), shard / big_n, "inter-ar.");
  }
  for (const std::vector<int>& node : by_node) run(node, m - 1, shard, "intra-ag.");
}

double hierarchical_analytic(const CollectiveSpec& spec, const Network& net) {
  const std::vector<std::vector<int>> by_node = nodes_of(spec);
  const int big_n = static_cast<int>(by_node.size()), m = static_cast<int>(by_node[0].size()), k = spec.chunks;
  std::vector<std::pair<int, int>> intra, inter;
  for (const std::vector<int>& node : by_node) {
    for (int l = 0; l < m && m > 1; ++l) intra.emplace_back(node[l], node[(l + 1) % m]);
  }
  for (int a = 0; a < big_n && big_n > 1; ++a) {
    for (int l = 0; l < m; ++l) inter.emplace_back(by_node[a][l], by_node[(a + 1) % big_n][l]);
  }
  double t = 0;
  if (m > 1) {
    const AlphaBeta i = worst_pair(spec, net, intra);
    t += 2 * (m - 1) * (k * i.latency_s + spec.bytes / (m * i.bandwidth));
  }
  if (big_n > 1) {
    const AlphaBeta e = worst_pair(spec, net, inter);
    t += 2 * (big_n - 1) * (k * e.latency_s + spec.bytes / (static_cast<double>(m) * big_n * e.bandwidth));
  }
  return t;
}

}  // namespace

void register_hierarchical(Registry<CollectiveAlgorithm>& r) {
  r.add("hierarchical", {"reduce-scatter on a ring inside each node, all-reduce of each shard on rings across nodes, "
                         "all-gather inside each node (needs a node per rank, equal ranks per node)",
                         {CollectiveOp::AllReduce}, lower_hierarchical, hierarchical_analytic});
}

}  // namespace placesim::engine
