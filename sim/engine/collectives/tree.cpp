// Tree all-reduce on NCCL's double binary tree. Each tree carries half the data, cut into k
// chunks of S/(2k), on a channel of its own (as NCCL runs each tree on its own channels): a rank sends a chunk up once it has it from all its children; the root,
// having reduced it, sends it back down, and each rank forwards it to its children. Where no
// two transfers share a link (e.g. a full mesh with the trees' parent links distinct), each
// hop is a slot of L + S/(2kB) and chunk c leaves the deepest leaf at slot c, so with D the
// trees' depth:
//   all-reduce = (2D + k - 1) (L + S/(2 k B))        (k = 1: 2 D (L + S/(2B)))
// The analytic fidelity evaluates this with the slowest tree edge.
#include "sim/engine/collectives/tree.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <string>

#include "sim/core/error.hpp"
#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/collectives/lowering.hpp"

namespace placesim::engine {

namespace {

// NCCL's ncclGetBtree: parent and children of `rank` in the btree over n ranks.
void btree(int n, int rank, int& up, int& down0, int& down1) {
  int bit = 1;
  while (bit < n && !(bit & rank)) bit <<= 1;
  if (rank == 0) {
    up = -1;
    down0 = -1;
    down1 = n > 1 ? bit >> 1 : -1;
    return;
  }
  up = (rank ^ bit) | (bit << 1);
  if (up >= n) up = rank ^ bit;
  int low = bit >> 1;
  down0 = low == 0 ? -1 : rank - low;
  down1 = low == 0 ? -1 : rank + low;
  while (down1 >= n) {
    low >>= 1;
    down1 = low == 0 ? -1 : rank + low;
  }
}

// The tree whose node r is btree node to_btree(r), relabelled back by from_btree.
template <class To, class From>
BinaryTree relabelled(int n, To to_btree, From from_btree) {
  BinaryTree t;
  t.parent.assign(n, -1);
  t.children.assign(n, {});
  for (int r = 0; r < n; ++r) {
    int up, d0, d1;
    btree(n, to_btree(r), up, d0, d1);
    if (up < 0) t.root = r;
    t.parent[r] = up < 0 ? -1 : from_btree(up);
    for (int d : {d0, d1}) {
      if (d >= 0) t.children[r].push_back(from_btree(d));
    }
  }
  for (int r = 0; r < n; ++r) {
    for (int ch : t.children[r]) PLACESIM_ASSERT(t.parent[ch] == r, "btree parent and child disagree");
  }
  return t;
}

// Ranks of `t` ordered root first, each after its parent.
std::vector<int> top_down(const BinaryTree& t) {
  std::vector<int> order{t.root};
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (int ch : t.children[order[i]]) order.push_back(ch);
  }
  return order;
}

void lower_tree(Lowering& low) {
  const int n = low.ranks(), k = low.chunks();
  const double bytes = low.spec().bytes / (2.0 * k);
  const std::array<BinaryTree, 2> trees = double_binary_tree(n);
  for (int c = 0; c < k; ++c) {
    for (int ti = 0; ti < 2; ++ti) {
      const BinaryTree& t = trees[ti];
      const std::vector<int> order = top_down(t);
      const std::string up_label = fmt::format("up.t{}.c{}", ti, c), down_label = fmt::format("down.t{}.c{}", ti, c);
      std::vector<TaskId> up(n, -1), down(n, -1);  // the transfer that carried rank r's chunk up / down
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const int r = *it;
        if (r == t.root) continue;
        std::vector<TaskId> deps;
        for (int ch : t.children[r]) deps.push_back(up[ch]);
        up[r] = low.send(r, t.parent[r], bytes, std::move(deps), up_label, ti);
      }
      for (int r : order) {
        for (int ch : t.children[r]) {
          std::vector<TaskId> deps;
          if (r == t.root) {
            for (int c2 : t.children[r]) deps.push_back(up[c2]);
          } else {
            deps.push_back(down[r]);
          }
          down[ch] = low.send(r, ch, bytes, std::move(deps), down_label, ti);
        }
      }
    }
  }
}

double tree_analytic(const CollectiveSpec& spec, const Network& net) {
  const int n = static_cast<int>(spec.group.size()), k = spec.chunks;
  const std::array<BinaryTree, 2> trees = double_binary_tree(n);
  std::vector<std::pair<int, int>> edges;
  for (const BinaryTree& t : trees) {
    for (int r = 0; r < n; ++r) {
      if (t.parent[r] < 0) continue;
      edges.emplace_back(r, t.parent[r]);
      edges.emplace_back(t.parent[r], r);
    }
  }
  const AlphaBeta w = worst_pair(spec, net, edges);
  const int d = std::max(trees[0].depth(), trees[1].depth());
  return (2 * d + k - 1) * (w.latency_s + spec.bytes / (2.0 * k * w.bandwidth));
}

}  // namespace

int BinaryTree::depth() const {
  int deepest = 0;
  for (std::size_t r = 0; r < parent.size(); ++r) {
    int d = 0;
    for (int x = static_cast<int>(r); parent[x] >= 0; x = parent[x]) ++d;
    deepest = std::max(deepest, d);
  }
  return deepest;
}

std::array<BinaryTree, 2> double_binary_tree(int n) {
  const auto id = [](int r) { return r; };
  if (n % 2 == 0) {
    const auto mirror = [n](int r) { return n - 1 - r; };
    return {relabelled(n, id, id), relabelled(n, mirror, mirror)};
  }
  return {relabelled(n, id, id), relabelled(n, [n](int r) { return (r + n - 1) % n; }, [n](int r) { return (r + 1) % n; })};
}

void register_tree(Registry<CollectiveAlgorithm>& r) {
  r.add("tree", {"double binary tree (NCCL): half the data reduced up and broadcast down each of two complementary "
                 "binary trees, pipelined in chunks",
                 {CollectiveOp::AllReduce}, lower_tree, tree_analytic});
}

}  // namespace placesim::engine
