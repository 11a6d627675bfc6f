// Ring algorithms (as NCCL's ring), on n ranks in group order, each link crossed by one flow
// at a time. With link bandwidth B, latency L, k chunks, each of the steps moves S/(n k) per
// chunk and its k chunks queue one after another on the connection:
//   all-reduce      (reduce-scatter then all-gather): 2(n-1) (k L + S/(n B))
//   all-gather, reduce-scatter:                         (n-1) (k L + S/(n B))
// Broadcast runs down the chain 0 -> 1 -> ... -> n-1; chunk c crosses hop h during slot h + c
// of length L + S/(k B), so the last chunk arrives after (n - 2 + k) (L + S/(k B)): from
// (n-1) (L + S/B) unchunked towards S/B + (n-2+k) L as k grows.
// Analytic fidelity takes B as the slowest and L as the slowest-to-start hop of the ring.
#include "sim/engine/collectives/ring.hpp"

#include "sim/engine/collectives/algorithm.hpp"

namespace placesim::engine {

namespace {

std::string step_label(const std::string& label, int s, int c) {
  std::string l = label;
  l += 's';
  l += std::to_string(s);
  l += ".c";
  l += std::to_string(c);
  return l;
}

std::vector<int> all_ranks(int n) {
  std::vector<int> r(n);
  for (int i = 0; i < n; ++i) r[i] = i;
  return r;
}

int ring_steps_of(CollectiveOp op, int n) { return op == CollectiveOp::AllReduce ? 2 * (n - 1) : n - 1; }

void lower_ring(Lowering& low) {
  const CollectiveSpec& spec = low.spec();
  const int n = low.ranks(), k = low.chunks();
  if (spec.op == CollectiveOp::Broadcast) {
    std::vector<TaskId> prev(k, -1);  // per chunk, its arrival at the current hop's sender
    for (int h = 0; h + 1 < n; ++h) {
      for (int c = 0; c < k; ++c) {
        std::vector<TaskId> deps;
        if (prev[c] >= 0) deps.push_back(prev[c]);
        prev[c] = low.send(h, h + 1, spec.bytes / k, std::move(deps), step_label("", h, c));
      }
    }
    return;
  }
  ring_steps(low, all_ranks(n), ring_steps_of(spec.op, n), spec.bytes / (static_cast<double>(n) * k), no_deps(n, k), "");
}

std::vector<std::pair<int, int>> ring_pairs(int n, bool closed) {
  std::vector<std::pair<int, int>> p;
  for (int i = 0; i + 1 < n; ++i) p.emplace_back(i, i + 1);
  if (closed) p.emplace_back(n - 1, 0);
  return p;
}

double ring_analytic(const CollectiveSpec& spec, const Network& net) {
  const int n = static_cast<int>(spec.group.size()), k = spec.chunks;
  const bool chain = spec.op == CollectiveOp::Broadcast;
  const AlphaBeta w = worst_pair(spec, net, ring_pairs(n, !chain));
  if (chain) return (n - 2 + k) * (w.latency_s + spec.bytes / (k * w.bandwidth));
  return ring_steps_of(spec.op, n) * (k * w.latency_s + spec.bytes / (n * w.bandwidth));
}

}  // namespace

ChunkDeps ring_steps(Lowering& low, const std::vector<int>& members, int steps, double bytes, const ChunkDeps& start,
                     const std::string& label) {
  const int m = static_cast<int>(members.size()), k = low.chunks();
  ChunkDeps done = start;
  if (m < 2) return done;
  std::vector<std::vector<TaskId>> sent(m, std::vector<TaskId>(k, -1));  // [member][chunk]: latest send
  for (int s = 0; s < steps; ++s) {
    for (int c = 0; c < k; ++c) {
      std::vector<TaskId> now(m);  // member j's send of step s
      const std::string step = step_label(label, s, c);
      for (int j = 0; j < m; ++j) {
        DepList deps = s == 0 ? DepList(start[j][c]) : DepList{sent[(j + m - 1) % m][c]};
        now[j] = low.send(members[j], members[(j + 1) % m], bytes, std::move(deps), step);
      }
      for (int j = 0; j < m; ++j) sent[j][c] = now[j];
    }
  }
  for (int j = 0; j < m; ++j) {
    for (int c = 0; c < k; ++c) done[j][c] = {sent[j][c], sent[(j + m - 1) % m][c]};
  }
  return done;
}

void register_ring(Registry<CollectiveAlgorithm>& r) {
  r.add("ring", {"ring over the group in order (NCCL ring): 2(n-1) steps of S/n for all-reduce, n-1 for all-gather and "
                 "reduce-scatter; broadcast as a pipelined chain from rank 0",
                 {CollectiveOp::AllReduce, CollectiveOp::AllGather, CollectiveOp::ReduceScatter, CollectiveOp::Broadcast},
                 lower_ring, ring_analytic});
}

}  // namespace placesim::engine
