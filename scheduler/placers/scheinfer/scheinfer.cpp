// scheinfer: ScheInfer's slice rates (ScheInfer section IV) on one CPU and one GPU. Every op but
// the FFN experts' runs on the GPU with its weights resident there; each layer's FFN weights are
// sliced CC / CG / GG (cpu_gpu_plan.hpp) at the rates of solver.hpp:
//   * the fits of Eq. 3 are profiled from the problem's own cost model and topology, as
//     ScheInfer's profiler measures its machine: a GEMM's time on each device at the whole op and
//     at half of it gives alpha and beta (exact for the linear cost model, a secant of the
//     roofline), less the GPU's launch, which the host's launch tasks pay; the copy's alpha and
//     beta are the host-to-GPU route's latency and 1 / bandwidth; t_Launch is the GPU's launch;
//   * r_GG per layer by Eq. 14 within the GPU memory left once everything else on the GPU is
//     counted (the other ops' weights, the KV cache, twice the largest output, and two layers' FFN
//     weights for the CG copies in flight), r_CC / r_CG by the edge points of Eq. 6-13; both on
//     the generation phase (one token per sequence, each expert's load scaled to it), as
//     ScheInfer fixes its rates there. A layer's rates slice all its experts, the idle ones' too;
//     the engine holds only the weights some op reads, so an idle expert's GG slice is not in the
//     simulated peak (the message's GG bytes are);
//   * in a prompt (a graph of more than one token per sequence), each layer's n_g of Eq. 15.
// The rates per layer, and where the GG budget went, are in `choices`; the prediction is left to
// the simulation, since Eq. 5 models the FFN blocks alone (their Eq. 5 total is in `choices`).
#include <cmath>
#include <fmt/format.h>

#include "models/cost/calibration.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/scheinfer/offload_setup.hpp"
#include "scheduler/placers/scheinfer/solver.hpp"
#include "scheduler/plan_slices.hpp"
#include "hw/route_cost.hpp"

namespace placesim::scheduler {
namespace {

using offload::Expert;
using offload::FfnLayer;
namespace si = scheinfer;

// The tokens a GEMM's shape computes (batch x m), and its work n of Eq. 3.
double tokens_of(const models::Node& op) {
  const auto* s = std::get_if<models::GemmShape>(&op.shape);
  return s ? s->batch * s->m : 0;
}

double work_of(const models::Node& op) {
  const std::optional<models::OpClassWork> w = models::op_class_work(op.shape);
  return w ? w->n : 0;
}

// alpha and beta of `op` on `dev` from the cost model: its time whole and half-split by
// columns, less the GPU's launch (the host's launch task pays it).
si::Fit profile(const Problem& p, int op, int dev, int cores) {
  Plan half;
  half.splits[op] = {models::Axis::Cols, std::nullopt, {{dev, 0.5}, {dev, 0.5}}};
  const Problem sliced = sliced_problem(p, half);
  const double launch = p.topo->devices[dev].kind == hw::DeviceKind::Gpu ? p.topo->devices[dev].launch_s : 0;
  const double whole = p.duration(op, dev, cores) - launch;
  const double part = sliced.duration(op, dev, cores) - launch;  // slice 0 keeps the op's index
  const double n = work_of(p.graph->nodes[op]);
  si::Fit f;
  f.beta = n > 0 ? 2 * (whole - part) / n : 0;
  f.alpha = std::max(0.0, whole - f.beta * n);
  return f;
}

class ScheInfer final : public Placer {
 public:
  explicit ScheInfer(const PlacerOptions& o) : setup_(o), steps_(o.get("steps")) {
    if (steps_.integer() < 1) steps_.fail(fmt::format("steps must be at least 1 (r_GG takes values i / steps), got {}", steps_.str()));
  }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const hw::Topology& topo = *p.topo;
    const auto s = setup_.resolve(topo, "scheinfer");
    const std::vector<FfnLayer> layers = offload::ffn_layers(g, "scheinfer");
    const int first = layers.front().experts.front().col_gemms.front();
    si::Hardware hw;
    hw.gpu = profile(p, first, s.gpu, 0);
    hw.cpu = profile(p, first, s.cpu, s.threads);
    const hw::RouteCost pcie = hw::route_cost(topo, topo.host_memory_for(s.gpu), s.gpu);
    hw.c2g = {pcie.latency_s, pcie.bandwidth > 0 ? 1 / pcie.bandwidth : 0};
    hw.launch = topo.devices[s.gpu].launch_s;

    // Each layer's block (its experts' GEMMs in stream order), in the prompt and in generation.
    const double tokens = tokens_of(g.nodes[first]);
    const double batch = std::get<models::GemmShape>(g.nodes[first].shape).batch;
    const double per_step = std::max(1.0, batch);  // tokens of a generation step: one per sequence
    std::vector<si::Block> now, generation;
    double ffn_bytes = 0, largest_layer = 0, all_bytes = 0;
    for (const FfnLayer& l : layers) {
      si::Block b, gen;
      double bytes = 0;
      for (const Expert& e : l.experts) {
        std::vector<int> gemms = e.col_gemms;
        gemms.push_back(e.row_gemm);
        for (int op : gemms) {
          const si::Gemm gemm{work_of(g.nodes[op]), offload::param_bytes(g, op)};
          b.gemms.push_back(gemm);
          gen.gemms.push_back({gemm.work * per_step / std::max(tokens, 1.0), gemm.weight_bytes});
          bytes += gemm.weight_bytes;
        }
      }
      now.push_back(std::move(b));
      generation.push_back(std::move(gen));
      ffn_bytes += bytes;
      all_bytes += l.weight_bytes;
      largest_layer = std::max(largest_layer, bytes);
    }

    // The GPU memory left for GG slices.
    const std::vector<int> sliced_ops = offload::expert_ops(layers);
    std::vector<bool> in_ffn(g.nodes.size(), false);
    for (int op : sliced_ops) in_ffn[op] = true;
    double fixed = 0, largest_output = 0, layer_fixed = 0;
    for (int op : g.ops()) {
      largest_output = std::max(largest_output, g.nodes[op].output_bytes);
      if (in_ffn[op]) continue;
      fixed += offload::param_bytes(g, op) + g.nodes[op].state_bytes;
      if (g.nodes[op].layer == layers.front().layer) layer_fixed += offload::param_bytes(g, op);
    }
    if (s.memory < layer_fixed)
      throw InputError(setup_.memory_loc(),
                       fmt::format("scheinfer: memory {:.4g} GB is below one layer's weights that are not sliced "
                                   "({:.4g} GB of attention and norms), which stay on the GPU",
                                   s.memory / 1e9, layer_fixed / 1e9));
    const double reserved = fixed + 2 * largest_output + 2 * largest_layer;
    const double budget = std::max(0.0, s.memory - reserved);
    // A layer's rates slice every expert's weights, the idle ones' too (they are routed to in
    // other steps), so r_GG of a layer holds r_GG of all its experts on the GPU: the solver,
    // which sees the GEMMs of this step's experts, gets the budget scaled to them.
    const double active = ffn_bytes / all_bytes;
    const si::GgAssignment gg =
        si::assign_gg(hw, generation, budget * active, static_cast<int>(steps_.integer()));
    const double gg_bytes = gg.bytes / active;

    offload::Design d;
    d.cpu = s.cpu;
    d.gpu = s.gpu;
    d.threads = s.threads;
    d.device_of.assign(g.nodes.size(), s.gpu);
    const bool prompt = tokens > per_step;
    nlohmann::ordered_json per_layer = nlohmann::ordered_json::array();
    double eq5 = 0;
    for (size_t i = 0; i < layers.size(); ++i) {
      const si::Rates r = gg.layers[i].rates;
      offload::Slicing slicing{r.cc, r.cg, r.gg, 0};
      nlohmann::ordered_json j = {{"layer", layers[i].layer}, {"cc", r.cc}, {"cg", r.cg}, {"gg", r.gg},
                                  {"edge", gg.layers[i].edge}};
      if (prompt) {
        const int T = static_cast<int>(std::lround(tokens));
        const si::PromptSolution ng = si::solve_tokens(hw, now[i], r, T);
        slicing.gpu_tokens = static_cast<double>(ng.n_g) / T;
        j["n_g"] = ng.n_g;
        j["n_g_edge"] = ng.edge;
        eq5 += ng.t_fin;
      } else {
        eq5 += si::block_time(hw, now[i], r).fin;
      }
      for (const Expert& e : layers[i].experts) d.sliced.push_back({e, slicing});
      per_layer.push_back(std::move(j));
    }
    PlacerResult res;
    res.plan = offload::build_cpu_gpu_plan(p, "scheinfer", d);
    res.choices = {{"layers", per_layer},
                   {"gg_source", gg.source},
                   {"gg_budget_bytes", budget},
                   {"gg_bytes", gg_bytes},
                   {"ffn_bytes", all_bytes},
                   {"eq5_ffn_seconds", eq5},
                   {"fits", {{"gpu", {hw.gpu.alpha, hw.gpu.beta}}, {"cpu", {hw.cpu.alpha, hw.cpu.beta}},
                             {"c2g", {hw.c2g.alpha, hw.c2g.beta}}, {"launch", hw.launch}}}};
    res.message = fmt::format("FFN weights {:.2f} GB: {:.2f} GB resident on {} (GG, {}), the rest on {}; Eq. 5 puts "
                              "the FFN blocks at {:.4g} s{}",
                              all_bytes / 1e9, gg_bytes / 1e9, topo.devices[s.gpu].id, gg.source,
                              topo.devices[s.cpu].id, eq5, prompt ? " (prompt, with n_g per layer)" : "");
    return res;
  }

 private:
  offload::SetupOptions setup_;
  Yaml steps_;
};

}  // namespace

void register_scheinfer(Registry<PlacerEntry>& r) {
  std::vector<OptionSpec> opts = offload::SetupOptions::specs();
  opts.push_back({"steps", "10", "n_G of Eq. 14: r_GG per layer takes the values i / steps"});
  r.add("scheinfer",
        {"ScheInfer: each FFN weight sliced CC (CPU) / CG (copied per use) / GG (resident on the GPU), rates by "
         "Eq. 6-15 from fits profiled on the cost model; the rest on the GPU; four streams with host launches",
         opts, PlacerKind::Heuristic, [](const PlacerOptions& o) { return std::make_unique<ScheInfer>(o); }, true});
}

}  // namespace placesim::scheduler
