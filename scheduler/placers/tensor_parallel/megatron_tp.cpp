// megatron-tp: Megatron-LM's 1D tensor parallelism (Shoeybi et al. 2019, section 3) over one
// group of GPUs, t of them, each with 1/t of every split:
//   * qkv, up and gate column-split; attention split by heads (its KV cache with it); the
//     activation split with the columns it reads; so no data moves between them;
//   * the attention output projection and down row-split, each followed by an all-reduce of its
//     output (a ring inside a node, NCCL's two-level ring across nodes: ring_algorithm) before
//     the residual add;
//   * the embedding, norms and residual adds replicated on every GPU of the group, as Megatron
//     runs them; the head column-split, or replicated when it shares its weight with the
//     embedding (Megatron splits both by vocabulary; placesim keeps the tied table whole).
// t need not divide the heads: the model splits the work fractionally (Megatron itself needs
// it to). One GPU: everything on it. The prediction is the bulk-synchronous estimate (ops in
// sequence at their slowest slice, each all-reduce at its closed form).
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/device_option.hpp"
#include "scheduler/placers/tensor_parallel/decoder_roles.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"

namespace placesim::scheduler {
namespace {

using models::Axis;
using tp::Role;

class MegatronTp final : public Placer {
 public:
  explicit MegatronTp(const PlacerOptions& o) : devices_(o.get("devices")) {}

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const std::vector<tp::DecoderOp> ops = tp::decoder_roles(g, "megatron-tp");
    const std::vector<int> group = devices_.resolve(*p.topo);
    tp::TpDesign d;
    d.device_of.assign(g.nodes.size(), group.front());
    if (group.size() > 1) {
      const double share = 1.0 / static_cast<double>(group.size());
      auto split = [&](Axis axis) {
        PlanSplit s{axis, std::nullopt, {}};
        for (int dev : group) s.slices.push_back({dev, axis == Axis::Replicas ? 1.0 : share});
        return s;
      };
      const std::string algorithm = tp::ring_algorithm(*p.topo, group);
      for (const tp::DecoderOp& op : ops) {
        switch (op.role) {
          case Role::Embedding:
          case Role::Norm:
          case Role::Residual: d.splits[op.node] = split(Axis::Replicas); break;
          case Role::ColumnIn: d.splits[op.node] = split(tp::owns_params(g, op.node) ? Axis::Cols : Axis::Replicas); break;
          case Role::Attention: d.splits[op.node] = split(Axis::Heads); break;
          case Role::Activation: d.splits[op.node] = split(Axis::Cols); break;
          case Role::RowOut: {
            d.splits[op.node] = split(Axis::Rows);
            PlanCollective ar;
            ar.name = g.nodes[op.node].name + ".allreduce";
            ar.op = engine::CollectiveOp::AllReduce;
            ar.algorithm = algorithm;
            ar.group = group;
            ar.bytes = g.nodes[op.node].output_bytes;
            ar.after = {op.node};
            for (int e : g.out_edges(op.node)) ar.before.push_back(g.edges[e].dst);
            d.collectives.push_back(std::move(ar));
            break;
          }
        }
      }
    }
    PlacerResult r;
    r.plan = tp::build_tp_plan(p, "megatron-tp", d);
    r.predicted_s = tp::bsp_seconds(p, *r.plan);
    return r;
  }

 private:
  DeviceOption devices_;
};

}  // namespace

void register_megatron_tp(Registry<PlacerEntry>& r) {
  r.add("megatron-tp",
        {"Megatron-LM 1D tensor parallelism over a group of GPUs: column- then row-split linears, attention by heads, "
         "an all-reduce after each row-split linear, norms and residual adds on every GPU",
         {DeviceOption::spec()},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<MegatronTp>(o); },
         /*splits_ops=*/true});
}

}  // namespace placesim::scheduler
