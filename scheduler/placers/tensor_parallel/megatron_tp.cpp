// megatron-tp: Megatron-LM's 1D tensor parallelism (Shoeybi et al. 2019, section 3) over
// tensor-parallel groups of t GPUs, each GPU with 1/t of every split:
//   * qkv, up and gate column-split; attention split by heads (its KV cache with it); the
//     activation split with the columns it reads; so no data moves between them;
//   * the attention output projection and down row-split, each followed by an all-reduce of its
//     output (a ring inside a node, NCCL's two-level ring across nodes: ring_algorithm; or, with
//     `all_reduce: flexreduce`, FlexReduce's uneven portions, as AsymGroup runs its Megatron-LM
//     baseline on nodes with different GPU counts) before the residual add;
//   * the embedding, norms and residual adds replicated on every GPU of the group, as Megatron
//     runs them; the head column-split, or replicated when it shares its weight with the
//     embedding (Megatron splits both by vocabulary; placesim keeps the tied table whole).
// Data parallelism across groups (`tp: t`, t dividing the G GPUs of `devices`): the GPUs form
// r = G/t tensor-parallel groups, group q the GPUs q t .. q t + t - 1 in the order given (the
// default order is the topology's, node by node, so a group stays inside a node whenever the
// nodes' GPU counts are multiples of t). Each group runs the whole model on 1/r of the batch
// (every op split by batch between the groups, and within a group as above: a 2D split with
// the tensor-parallel axis inner, replicas inner for the norms and adds), holds its own copy of
// the weights (so each GPU holds 1/t of every split weight whatever r is), and all-reduces
// 1/r of each row-split output among its own t GPUs only. r must divide the batch: an uneven
// split would leave the slowest group setting the time, which even shares would understate.
// The embedding has no shape to split by batch, so every GPU looks up the whole batch (its
// output read where each group needs it: a small overcount of a gather).
// t need not divide the heads: the model splits the work fractionally (Megatron itself needs
// it to). One GPU: everything on it. The prediction is the bulk-synchronous estimate (ops in
// sequence at their slowest slice, each all-reduce at its closed form).
#include <cmath>
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/device_option.hpp"
#include "scheduler/placers/tensor_parallel/decoder_roles.hpp"
#include "scheduler/placers/tensor_parallel/tp_plan.hpp"

namespace placesim::scheduler {
namespace {

using models::Axis;
using tp::Role;

// The batch of the graph's sequences: its attention's (every decoder op carries the same).
double batch_of(const models::Graph& g, const std::vector<tp::DecoderOp>& ops) {
  for (const tp::DecoderOp& op : ops)
    if (op.role == Role::Attention)
      if (const auto* a = std::get_if<models::AttentionShape>(&g.nodes[op.node].shape)) return a->batch;
  throw InputError(fmt::format("megatron-tp: data parallelism splits the batch, but graph '{}' has no attention "
                               "shape to read it from",
                               g.name));
}

class MegatronTp final : public Placer {
  // The decoder's ops, the GPUs, the group size t and the replicas r = G / t, checked: t divides
  // the GPUs and the replicas split the batch evenly.
  struct Layout {
    std::vector<tp::DecoderOp> ops;
    std::vector<int> gpus;
    int t = 0, r = 0;
  };
  Layout layout(const Problem& p) const {
    Layout l{tp::decoder_roles(*p.graph, "megatron-tp"), devices_.resolve(*p.topo)};
    const int G = static_cast<int>(l.gpus.size());
    l.t = tp_ > 0 ? tp_ : G;
    if (l.t > G || G % l.t != 0)
      throw InputError(tp_loc_, fmt::format("megatron-tp: tp = {} does not divide the {} GPUs into equal "
                                            "tensor-parallel groups",
                                            l.t, G));
    l.r = G / l.t;
    if (l.r > 1) {
      const double batch = batch_of(*p.graph, l.ops);
      if (std::fmod(batch, l.r) != 0)
        throw InputError(tp_loc_, fmt::format("megatron-tp: tp = {} makes {} data-parallel replicas, which do not "
                                              "split the batch of {} evenly (give a tp that leaves replicas "
                                              "dividing it, or tp: all)",
                                              l.t, l.r, batch));
    }
    return l;
  }

 public:
  explicit MegatronTp(const PlacerOptions& o)
      : devices_(o.get("devices")), tp_(tp::count_option(o.get("tp"), "tp", "all")), tp_loc_(o.get("tp").loc()) {
    const auto& ar = o.get("all_reduce");
    if (ar.str() != "nccl" && ar.str() != "flexreduce")
      ar.fail(fmt::format("all_reduce must be nccl or flexreduce, got '{}'", ar.str()));
    flexreduce_ = ar.str() == "flexreduce";
  }

  void check(const Problem& p) const override { layout(p); }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const Layout l = layout(p);
    const std::vector<tp::DecoderOp>& ops = l.ops;
    const std::vector<int>& gpus = l.gpus;
    const int G = static_cast<int>(gpus.size()), t = l.t, r = l.r;
    auto group = [&](int q) { return std::vector<int>(gpus.begin() + q * t, gpus.begin() + (q + 1) * t); };
    tp::TpDesign d;
    d.device_of.assign(g.nodes.size(), gpus.front());
    d.group_joins = true;
    // An op split along `axis` within each group (1/t each, or whole copies), and by batch
    // between the groups.
    auto split = [&](Axis axis) {
      const double share = axis == Axis::Replicas ? 1.0 : 1.0 / t;
      PlanSplit s{axis, std::nullopt, {}};
      if (r > 1) {
        s.axis = Axis::Batch;
        if (t > 1) s.inner = axis;
      }
      for (int q = 0; q < r; ++q)
        for (int dev : group(q)) {
          if (r == 1) s.slices.push_back({dev, share});
          else s.slices.push_back({dev, 1.0 / r, t > 1 ? share : 1.0});
        }
      return s;
    };
    for (const tp::DecoderOp& op : G > 1 ? ops : std::vector<tp::DecoderOp>{}) {
      switch (op.role) {
        case Role::Embedding: {
          PlanSplit s{Axis::Replicas, std::nullopt, {}};
          for (int dev : gpus) s.slices.push_back({dev, 1.0});
          d.splits[op.node] = std::move(s);
          break;
        }
        case Role::Norm:
        case Role::Residual: d.splits[op.node] = split(Axis::Replicas); break;
        case Role::ColumnIn: d.splits[op.node] = split(tp::owns_params(g, op.node) ? Axis::Cols : Axis::Replicas); break;
        case Role::Attention: d.splits[op.node] = split(Axis::Heads); break;
        case Role::Activation: d.splits[op.node] = split(Axis::Cols); break;
        case Role::RowOut: {
          d.splits[op.node] = split(Axis::Rows);
          for (int q = 0; q < r && t > 1; ++q) {
            PlanCollective ar;
            ar.name = g.nodes[op.node].name + (r == 1 ? ".allreduce" : fmt::format(".allreduce{}", q));
            ar.op = engine::CollectiveOp::AllReduce;
            ar.group = group(q);
            ar.algorithm = flexreduce_ ? "flexreduce" : tp::ring_algorithm(*p.topo, ar.group);
            ar.bytes = g.nodes[op.node].output_bytes / r;
            ar.after = {op.node};
            for (int e : g.out_edges(op.node)) ar.before.push_back(g.edges[e].dst);
            d.collectives.push_back(std::move(ar));
          }
          break;
        }
      }
    }
    PlacerResult res;
    tp::TpPlan built = tp::build_tp_plan(p, "megatron-tp", d);
    res.predicted_s = tp::bsp_seconds(p, built);
    res.plan = std::move(built.plan);
    res.choices = {{"tp", t}, {"replicas", r}};
    return res;
  }

 private:
  DeviceOption devices_;
  int tp_ = 0;  // 0: all of the group
  SourceLoc tp_loc_;
  bool flexreduce_ = false;
};

}  // namespace

void register_megatron_tp(Registry<PlacerEntry>& r) {
  r.add("megatron-tp",
        {"Megatron-LM 1D tensor parallelism over groups of GPUs: column- then row-split linears, attention by heads, "
         "an all-reduce after each row-split linear, norms and residual adds on every GPU of a group; several groups "
         "split the batch (data parallelism)",
         {DeviceOption::spec(),
          {"tp", "all", "GPUs per tensor-parallel group (dividing the GPUs; consecutive GPUs form a group), or all: "
                        "one group"},
          {"all_reduce", "nccl", "the row-split linears' all-reduces: nccl (a ring inside a node, a two-level ring "
                                 "across nodes of equal GPU counts) or flexreduce (each GPU an uneven portion, every "
                                 "node an equal share: each byte crosses a node's network link once each way)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<MegatronTp>(o); },
         PlacerFacts{.needs = {.transformer = true, .dense = true},
                     .bounded_by = {},
                     .unbounded_why = "its plans split ops over devices",
                     .sample = {.hardware = "sortinghat-v100", .weights = WeightsMode::Resident}}});
}

}  // namespace placesim::scheduler
