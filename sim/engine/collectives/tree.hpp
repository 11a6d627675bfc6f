// NCCL's double binary tree: two binary trees over the same n ranks in which (nearly) every
// rank that is an inner node of one is a leaf of the other, so each carries half the data and
// the ranks' links are evenly loaded.
#pragma once

#include <array>
#include <vector>

namespace placesim::engine {

struct BinaryTree {
  int root = 0;
  std::vector<int> parent;                 // -1 for the root
  std::vector<std::vector<int>> children;  // at most two each
  int depth() const;                       // edges on the longest root-to-leaf path
};

// Tree 0: NCCL's in-order btree (a rank's parent flips its lowest set bit and sets the next;
// rank 0 is the root with one child). Tree 1: tree 0 mirrored (rank r -> n-1-r) when n is
// even, shifted by one (r -> r+1 mod n) when n is odd.
std::array<BinaryTree, 2> double_binary_tree(int n);

}  // namespace placesim::engine
