// Direct algorithms: every rank sends each peer its share at once, all pairs in parallel, k
// chunks queued per pair. On a switch where rank i reaches the others through one link of
// bandwidth B per direction (route latency L), rank i's n-1 flows share that link equally and
// all end together:
//   all-to-all, all-gather, reduce-scatter (S/n to each peer):  k L + (n-1) S / (n B)
//   all-reduce (reduce-scatter, then all-gather of the reduced shares):  2 (k L + (n-1) S/(n B))
//   broadcast (rank 0 sends S to each):  k L + (n-1) S / B
//   point-to-point (p senders, n-p receivers; sender i sends each receiver S / (p (n-p))):
//     k L + S / (min(p, n-p) B), the busier side's link
// Analytic fidelity evaluates these with the worst pair's L and B (assuming that sharing).
#include "sim/engine/collectives/direct.hpp"

#include <algorithm>
#include <string>

#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/proportional.hpp"

namespace placesim::engine {

namespace {

std::string chunk_label(const char* phase, int c) {
  std::string l = phase;
  l += ".c";
  l += std::to_string(c);
  return l;
}

void lower_direct(Lowering& low) {
  const CollectiveSpec& spec = low.spec();
  const int n = low.ranks(), k = low.chunks();
  const double each = spec.bytes / (static_cast<double>(n) * k);  // to each peer, per chunk
  const auto share = [each](int, int) { return each; };
  switch (spec.op) {
    case CollectiveOp::AllToAll:
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
      exchange(low, share, {}, "x");
      return;
    case CollectiveOp::AllReduce:
      exchange(low, share, joined(low, exchange(low, share, {}, "rs"), "reduced"), "ag");
      return;
    case CollectiveOp::Broadcast:
      for (int c = 0; c < k; ++c) {
        for (int j = 1; j < n; ++j) low.send(0, j, spec.bytes / k, {}, chunk_label("b", c));
      }
      return;
    case CollectiveOp::PointToPoint:
      check_senders(spec);
      lower_point_to_point(low, std::vector<double>(n, 1.0));
      return;
  }
}

double direct_analytic(const CollectiveSpec& spec, const Network& net) {
  const int n = static_cast<int>(spec.group.size()), k = spec.chunks;
  const bool p2p = spec.op == CollectiveOp::PointToPoint;
  if (p2p) check_senders(spec);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < (spec.op == CollectiveOp::Broadcast ? 1 : p2p ? spec.senders : n); ++i) {
    for (int j = p2p ? spec.senders : 0; j < n; ++j) {
      if (i != j) pairs.emplace_back(i, j);
    }
  }
  const AlphaBeta w = worst_pair(spec, net, pairs);
  if (p2p) return k * w.latency_s + spec.bytes / (std::min(spec.senders, n - spec.senders) * w.bandwidth);
  const double exchange_s = k * w.latency_s + (n - 1) * spec.bytes / (n * w.bandwidth);
  switch (spec.op) {
    case CollectiveOp::AllReduce: return 2 * exchange_s;
    case CollectiveOp::Broadcast: return k * w.latency_s + (n - 1) * spec.bytes / w.bandwidth;
    default: return exchange_s;
  }
}

}  // namespace

ChunkDeps exchange(Lowering& low, const std::function<double(int, int)>& bytes,
                   const std::vector<std::vector<TaskId>>& start, const char* phase, int channel) {
  const int n = low.ranks(), k = low.chunks();
  ChunkDeps arrived = no_deps(n, k);
  for (int c = 0; c < k; ++c) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        const double b = i == j ? 0 : bytes(i, j);
        if (b <= 0) continue;
        std::vector<TaskId> deps;
        if (!start.empty() && start[i][c] >= 0) deps.push_back(start[i][c]);
        arrived[j][c].push_back(low.send(i, j, b, std::move(deps), chunk_label(phase, c), channel));
      }
    }
  }
  return arrived;
}

std::vector<std::vector<TaskId>> joined(Lowering& low, const ChunkDeps& arrived, const char* label) {
  std::vector<std::vector<TaskId>> start(arrived.size(), std::vector<TaskId>(static_cast<std::size_t>(low.chunks()), -1));
  for (std::size_t j = 0; j < arrived.size(); ++j) {
    for (int c = 0; c < low.chunks(); ++c) {
      if (!arrived[j][c].empty()) start[j][c] = low.join(static_cast<int>(j), arrived[j][c], chunk_label(label, c));
    }
  }
  return start;
}

void register_direct(Registry<CollectiveAlgorithm>& r) {
  r.add("direct", {"every rank sends each peer its share at once (all pairs in parallel): all-to-all, all-gather, "
                   "reduce-scatter, all-reduce (reduce-scatter then all-gather), broadcast from rank 0, point-to-point "
                   "with equal slices",
                   {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter, CollectiveOp::Broadcast,
                    CollectiveOp::AllToAll, CollectiveOp::PointToPoint},
                   lower_direct, direct_analytic});
}

}  // namespace placesim::engine
