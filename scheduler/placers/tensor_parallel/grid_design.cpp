#include "scheduler/placers/tensor_parallel/grid_design.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace placesim::scheduler::tp {
namespace {

using models::Axis;

std::vector<int> consumers(const models::Graph& g, int op) {
  std::vector<int> out;
  for (int e : g.out_edges(op)) out.push_back(g.edges[e].dst);
  return out;
}

// The activation input of a linear layer (its one input that is an op).
int input_of(const models::Graph& g, int op) {
  for (int e : g.in_edges(op))
    if (g.nodes[g.edges[e].src].kind == models::NodeKind::Op) return g.edges[e].src;
  return -1;
}

class Builder {
 public:
  Builder(const models::Graph& g, const Grid& grid) : g_(g), grid_(grid) {
    for (size_t t = 0; t < grid.groups.size(); ++t) {
      group_total_.push_back(std::accumulate(grid.weight[t].begin(), grid.weight[t].end(), 0.0));
      for (size_t r = 0; r < grid.groups[t].size(); ++r) {
        all_.push_back(grid.groups[t][r]);
        all_weight_.push_back(grid.weight[t][r]);
        group_of_.push_back(static_cast<int>(t));
      }
    }
    total_ = std::accumulate(group_total_.begin(), group_total_.end(), 0.0);
  }

  TpDesign design(const std::vector<DecoderOp>& ops) {
    d_.device_of.assign(g_.nodes.size(), all_.front());
    for (const DecoderOp& op : ops) {
      switch (op.role) {
        case Role::Embedding: d_.splits[op.node] = replicas(); break;
        case Role::Norm:
        case Role::Residual:
        case Role::Activation: d_.splits[op.node] = shards(Axis::Cols); break;
        case Role::Attention: d_.splits[op.node] = shards(Axis::Heads); break;
        case Role::ColumnIn:
        case Role::RowOut:
          if (owns_params(g_, op.node)) linear(op.node);
          else tied_head(op.node);
          break;
      }
    }
    return std::move(d_);
  }

 private:
  PlanSplit replicas() const {
    PlanSplit s{Axis::Replicas, std::nullopt, {}};
    for (int dev : all_) s.slices.push_back({dev, 1.0});
    return s;
  }

  // Member n holds w_n / W of the op along `axis`.
  PlanSplit shards(Axis axis) const {
    PlanSplit s{axis, std::nullopt, {}};
    for (size_t i = 0; i < all_.size(); ++i) s.slices.push_back({all_[i], all_weight_[i] / total_});
    return s;
  }

  PlanCollective collective(std::string name, engine::CollectiveOp op, std::vector<int> group, double bytes,
                            std::vector<int> after, std::vector<int> before) const {
    PlanCollective c;
    c.name = std::move(name);
    c.op = op;
    c.group = std::move(group);
    c.algorithm = "ring";
    c.bytes = bytes;
    c.after = std::move(after);
    c.before = std::move(before);
    return c;
  }

  void linear(int op) {
    const models::Node& n = g_.nodes[op];
    const std::string& name = n.name;
    PlanSplit s{Axis::Cols, Axis::Rows, {}};
    for (size_t t = 0; t < grid_.groups.size(); ++t)
      for (size_t r = 0; r < grid_.groups[t].size(); ++r)
        s.slices.push_back({grid_.groups[t][r], group_total_[t] / total_, grid_.weight[t][r] / group_total_[t]});
    d_.splits[op] = s;
    const int in = input_of(g_, op);
    // Row position r of every group multiplies the same input rows: they gather them, each
    // bringing its 1/G of the input (a N K in all) to the k of them.
    const double narrower = std::min(g_.nodes[in].output_bytes, n.output_bytes);
    const double input_bytes = grid_.per_linear ? narrower : g_.nodes[in].output_bytes;
    const double output_bytes = grid_.per_linear ? narrower : n.output_bytes;
    if (grid_.capability && grid_.groups.size() > 1) {
      PlanCollective ag = collective(name + ".gather", engine::CollectiveOp::AllGather, all_, input_bytes, {in}, {op});
      ag.algorithm = "proportional";
      ag.weights = all_weight_;
      ag.groups = group_of_;
      d_.collectives.push_back(std::move(ag));
    }
    const size_t members = grid_.capability ? 0 : grid_.groups.front().size();
    for (size_t r = 0; r < members && grid_.groups.size() > 1; ++r) {
      std::vector<int> row;
      for (const auto& grp : grid_.groups) row.push_back(grp[r]);
      const double gathered = input_bytes * static_cast<double>(row.size()) / static_cast<double>(all_.size());
      d_.collectives.push_back(
          collective(fmt::format("{}.gather{}", name, r), engine::CollectiveOp::AllGather, row, gathered, {in}, {op}));
    }
    // Each group sums its partial outputs (a group of one already has them whole: its
    // collective only orders the consumers after it).
    for (size_t t = 0; t < grid_.groups.size(); ++t) {
      PlanCollective rs = collective(fmt::format("{}.scatter{}", name, t), engine::CollectiveOp::ReduceScatter,
                                     grid_.groups[t], output_bytes * group_total_[t] / total_, {op}, consumers(g_, op));
      if (grid_.capability) {
        rs.algorithm = "proportional";
        rs.weights = grid_.weight[t];
      }
      d_.collectives.push_back(std::move(rs));
    }
  }

  // A head that shares the embedding's table: the whole final norm gathered, the head replicated.
  void tied_head(int op) {
    d_.splits[op] = replicas();
    const int in = input_of(g_, op);
    if (all_.size() > 1)
      d_.collectives.push_back(collective(g_.nodes[op].name + ".gather", engine::CollectiveOp::AllGather, all_,
                                          g_.nodes[in].output_bytes, {in}, {op}));
  }

  const models::Graph& g_;
  const Grid& grid_;
  std::vector<int> all_, group_of_;
  std::vector<double> all_weight_, group_total_;
  double total_ = 0;
  TpDesign d_;
};

}  // namespace

TpDesign grid_design(const models::Graph& g, const std::vector<DecoderOp>& ops, const Grid& grid) {
  return Builder(g, grid).design(ops);
}

}  // namespace placesim::scheduler::tp
