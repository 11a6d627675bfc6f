// Partition into submodels by dominator analysis (sortinghat.md, 3.1).
//
// Over the op nodes (parameters are not on data paths) with a virtual input before every op
// without op predecessors and a virtual output after every op without op successors, node d
// dominates v when every path from the input to v passes d. The partition points are the
// dominators of the virtual output, ordered from input to output, other than a graph input
// (an op with no op predecessor) or a graph output (no op successor): the ops every inference
// passes through. Immediate dominators come from Boost.Graph's Lengauer-Tarjan.
//
// Partition points split the ops into segments: segment i runs from after point i-1 up to and
// including point i (the last segment ends at the outputs). A segment is well defined: on a DAG
// an op between points i-1 and i on one input-to-output path is between them on every path.
// It is computed in topological order as seg(v) = seg(u) + [u is a point] for any op
// predecessor u. With `ndom` points per submodel, submodel k holds segments
// k*ndom .. k*ndom + ndom - 1; its last point is its output. SortingHat's Fig. 6: in
// A -> {B, C} -> D -> {E, F} -> G every path passes D, so the submodels are {A, B, C, D} and
// {E, F, G}.
//
// As a Graph, submodel k > 0 starts with a placeholder op ("<point>.placeholder", type
// "placeholder", no work, output_bytes of the point) standing for the last point of submodel
// k-1, the only op outside it that its ops read; each parameter is copied into every submodel
// whose ops read it.
#pragma once

#include <vector>

#include "models/graph.hpp"

namespace placesim::models {

// Partition points of a validated graph, from input to output.
std::vector<int> partition_points(const Graph& g);

struct Partition {
  std::vector<int> points;       // as partition_points
  std::vector<int> submodel_of;  // per node; a parameter: the submodel of its first reader (-1 if none)
  int submodels = 0;
};

// `ndom` >= 1 points per submodel (InputError otherwise).
Partition partition_by_dominators(const Graph& g, int ndom);

struct Submodel {
  Graph graph;                // validated, named "<graph>.sub<k>"
  std::vector<int> original;  // per node of `graph`: its index in the whole graph, -1 for the placeholder
};

std::vector<Submodel> split_submodels(const Graph& g, const Partition& p);

}  // namespace placesim::models
