// The registry of collective algorithms (ring, tree, direct, hierarchical, proportional,
// flexreduce), by name with a description and the operations each implements, as placers are
// registered.
// Filled by register_builtin_collectives() on first use (no static constructors).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/core/registry.hpp"
#include "sim/engine/collectives/collective.hpp"

namespace placesim::engine {

class Lowering;

struct CollectiveAlgorithm {
  std::string description;
  std::vector<CollectiveOp> ops;  // the operations it implements
  // Appends the flow-fidelity steps (the spec is already checked against the group).
  std::function<void(Lowering&)> lower;
  // The closed form, in seconds, for the analytic fidelity.
  std::function<double(const CollectiveSpec&, const Network&)> analytic;
  // The operations it runs among `groups` of ranks; for any other, `groups` is an error rather
  // than silently ignored.
  std::vector<CollectiveOp> grouped = {};
  // Where ranks end apart (uneven slices): per rank, seconds from the start to its end, the last
  // of them `analytic`. Empty where every rank ends at `analytic`.
  std::function<const std::vector<double>&(const CollectiveSpec&, const Network&)> analytic_ends = {};
  // The ideal fidelity's closed form, where it differs from `analytic` (every rank ends at it).
  std::function<double(const CollectiveSpec&, const Network&)> ideal = {};
};

Registry<CollectiveAlgorithm>& collective_algorithms();

void register_builtin_collectives(Registry<CollectiveAlgorithm>& r);
// One per algorithm file.
void register_ring(Registry<CollectiveAlgorithm>& r);
void register_tree(Registry<CollectiveAlgorithm>& r);
void register_direct(Registry<CollectiveAlgorithm>& r);
void register_hierarchical(Registry<CollectiveAlgorithm>& r);
void register_proportional(Registry<CollectiveAlgorithm>& r);
void register_flexreduce(Registry<CollectiveAlgorithm>& r);

}  // namespace placesim::engine
