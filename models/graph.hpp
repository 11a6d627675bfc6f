// The workload IR (docs/formats.md, "Graphs"): a DAG of operator nodes and parameter nodes.
//
// An op node carries its work (flops, bytes of memory traffic, output size, an op type such as
// "matmul") or explicit per-device durations in seconds, and where known the shape that work
// comes from (op_shape.hpp: what a plan splits an op along); a parameter node carries the size of a
// weight tensor and has edges to the ops that read it. Edges carry bytes (timed by the network
// model) or a fixed time in seconds.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "models/dtype.hpp"
#include "models/op_shape.hpp"
#include "sim/core/error.hpp"
#include "sim/core/id_rows.hpp"
#include "sim/core/name_index.hpp"
#include "sim/core/prefetch.hpp"

namespace placesim::models {

enum class NodeKind { Op, Param };

struct Node {
  std::string name;
  NodeKind kind = NodeKind::Op;
  std::string type;             // op type ("matmul", "add", ...); "param" for parameters
  double flops = 0;
  double bytes = 0;             // memory traffic of the op (read + write), bytes
  double output_bytes = 0;      // activation it produces
  double param_bytes = 0;       // Param: size of the weight
  double state_bytes = 0;       // memory an op keeps on its device for the whole run (KV cache)
  int layer = -1;               // transformer layer, -1 for none
  std::map<std::string, double> durations;  // explicit seconds per device id (overrides work)
  OpShape shape;                // dimensions behind flops and bytes; NoShape where unknown
  SourceLoc loc;
};

struct Edge {
  int src = -1, dst = -1;
  double bytes = 0;
  std::optional<double> time_s;  // fixed time, independent of the network
  SourceLoc loc;
};

class Graph {
 public:
  std::string name;
  DType dtype = DType::FP32;
  std::vector<Node> nodes;
  std::vector<Edge> edges;

  int add_node(Node n);
  // Adds n and indexes its name at once, for a reader that looks names up as it adds them (a
  // graph file's edges), so validate() need not index them again; the graph must have been built
  // this way from empty. When a node already has n's name, adds nothing and returns that node's
  // index; else -1.
  int add_named_node(Node n);
  int add_edge(int src, int dst, double bytes);
  // -1 when absent. By a hash index once validate_nodes() has passed, while the node vector is
  // the one it indexed (not a copy) and no node was added (a hit is checked against the node's
  // name); by a scan otherwise. Renaming a node of a validated graph in place is not supported
  // (nothing does: the plan and its checks key on names).
  int find(std::string_view name) const;
  // find(name), comparing node `hint` first (any int): one compare for a reader that meets the
  // names in node order (a plan's `devices`), a probe into the index otherwise.
  int find(std::string_view name, int hint) const;

  // Asks the cache ahead for the lookups a reader will make (NameIndex::ask_slot), for a reader
  // that looks up n names in no order of the nodes' (a graph file's edge ends, a plan's queues):
  // before its lookup k it calls before(k, n, name_at), which asks for lookup k + kDistance (and
  // at k = 0 for the first ones too). name_at(j) gives lookup j's name, or nullopt to skip it. A
  // name's slot in the index is asked for at once, its node's name half-way, when the slot has
  // arrived. Only the cache changes: lookups give what they would.
  class Lookahead {
   public:
    static constexpr std::size_t kDistance = kPrefetchAhead;
    explicit Lookahead(const Graph& g) : g_(g), live_(g.by_name_.bound_to(g.nodes.data(), g.nodes.size())) {}
    template <class NameAt>
    void before(std::size_t k, std::size_t n, const NameAt& name_at) {
      for (std::size_t j = k == 0 ? 0 : k + kDistance; j <= k + kDistance && j < n; ++j)
        if (const std::optional<std::string_view> name = name_at(j)) ask(*name);
    }

   private:
    void ask(std::string_view name);

    const Graph& g_;
    bool live_;  // the index is in use (Graph::find)
    std::uint32_t hashes_[kDistance] = {};
    std::size_t asked_ = 0;
  };

  // Throws InputError (at the offending node) for a node without a name, a duplicate name or a
  // negative quantity; indexes the names for find() (the first validation after add_named_node
  // keeps its index). For a graph whose edges are not final yet (a plan's sliced nodes);
  // validate() does it first.
  void validate_nodes();
  // validate_nodes(), then InputError (at the offending edge or node) for a dangling edge, a
  // negative quantity or a cycle (naming a node on it). Builds the adjacency lists.
  void validate();
  // A node's edges in ascending edge id (views into one array per direction, valid until the
  // next validate()).
  std::span<const int> in_edges(int node) const { return in_.row(static_cast<std::size_t>(node)); }
  std::span<const int> out_edges(int node) const { return out_.row(static_cast<std::size_t>(node)); }
  // Nodes in topological order (ties by index), valid after validate().
  const std::vector<int>& topo_order() const { return topo_; }
  std::vector<int> ops() const;     // op nodes, in topological order
  std::vector<int> params() const;  // param nodes, by index

 private:
  // Each node's edges in one direction, as compressed rows (a vector per node was two
  // allocations per node, 40k at 10k flows, and a cache miss per look).
  IdRows in_, out_;
  std::vector<int> topo_;
  NameIndex by_name_;  // bound to `nodes` by validate_nodes() or add_named_node
  bool named_ = false;  // by_name_ built by add_named_node, not yet validated
};

}  // namespace placesim::models
