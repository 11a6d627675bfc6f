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
//     ScheInfer fixes its rates there. A layer's rates slice all its experts, the idle ones' too,
//     but an idle expert's weights, which no op reads, are held whole in host memory in the plan:
//     the simulated GPU peak leaves out their GG share (the message's GG bytes count it);
//   * in a prompt (a graph of more than one token per sequence), each layer's n_g of Eq. 15.
// With `resident: none` the GG budget is 0 (r_GG = 0 everywhere: the paper's thread ablation).
// With `launches: layer` each block's launch stream starts after its layer's other launches
// (attention, norms, adds: every one a kernel the host launches on the same stream), where Eq. 5
// starts it free: in a decode step bound by launches, a CG or GG slice's launches then cost what
// they cost the step.
// The rates per layer, and where the GG budget went, are in `choices`; the prediction is left to
// the simulation, since Eq. 5 models the FFN blocks alone (their Eq. 5 total is in `choices`).
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/offload/scheinfer_inputs.hpp"

namespace placesim::scheduler {
namespace {

namespace si = scheinfer;

class ScheInfer final : public Placer {
 public:
  explicit ScheInfer(const PlacerOptions& o) : setup_(o), steps_(o.get("steps")) {
    if (steps_.integer() < 1) steps_.fail(fmt::format("steps must be at least 1 (r_GG takes values i / steps), got {}", steps_.str()));
    const Yaml resident = o.get("resident");
    if (resident.str() != "auto" && resident.str() != "none")
      resident.fail(fmt::format("option 'resident' must be auto or none, got '{}'", resident.str()));
    no_resident_ = resident.str() == "none";
    const Yaml launches = o.get("launches");
    if (launches.str() != "block" && launches.str() != "layer")
      launches.fail(fmt::format("option 'launches' must be block or layer, got '{}'", launches.str()));
    layer_launches_ = launches.str() == "layer";
  }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const hw::Topology& topo = *p.topo;
    const auto s = setup_.resolve(topo, "scheinfer");
    const si::Inputs in = si::scheinfer_inputs(p, s, setup_.memory_loc(), layer_launches_);
    // A layer's rates slice every expert's weights, the idle ones' too (they are routed to in
    // other steps), so r_GG of a layer holds r_GG of all its experts on the GPU: the solver,
    // which sees the GEMMs of this step's experts, gets the budget scaled to them.
    // `resident: none` keeps every FFN weight off the GPU (r_GG = 0), as ScheInfer's thread
    // ablation (section V-D) holds it to show how r_CG follows the CPU's threads.
    // The plan for a GG budget: the rates per layer, and its Eq. 5 total.
    struct Built {
      si::GgAssignment gg;
      offload::Design design;
      nlohmann::ordered_json per_layer = nlohmann::ordered_json::array();
      double eq5 = 0;
    };
    auto build = [&](double budget) {
      Built b{si::assign_gg(in.hw, in.generation, budget * in.active, static_cast<int>(steps_.integer())), {}};
      offload::Design& d = b.design;
      d.cpu = s.cpu;
      d.gpu = s.gpu;
      d.threads = s.threads;
      d.device_of.assign(g.nodes.size(), s.gpu);
      for (size_t w = 0; w < g.nodes.size(); ++w)  // idle experts' weights: in host memory (see the top)
        if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(static_cast<int>(w)).empty()) d.device_of[w] = s.cpu;
      for (size_t i = 0; i < in.layers.size(); ++i) {
        const si::Rates r = b.gg.layers[i].rates;
        offload::Slicing slicing{r.cc, r.cg, r.gg, 0};
        nlohmann::ordered_json j = {{"layer", in.layers[i].layer}, {"cc", r.cc}, {"cg", r.cg}, {"gg", r.gg},
                                    {"edge", b.gg.layers[i].edge}};
        if (in.prompt) {
          const si::PromptSolution ng = si::solve_tokens(in.hw, in.now[i], r, in.tokens);
          slicing.gpu_tokens = static_cast<double>(ng.n_g) / in.tokens;
          j["n_g"] = ng.n_g;
          j["n_g_edge"] = ng.edge;
          b.eq5 += ng.t_fin;
        } else {
          b.eq5 += si::block_time(in.hw, in.now[i], r).fin;
        }
        for (const offload::Expert& e : in.layers[i].experts) d.sliced.push_back({e, slicing});
        b.per_layer.push_back(std::move(j));
      }
      return b;
    };
    // Eq. 14's budget estimates what else the GPU holds; the simulated peak is the truth. While
    // the plan goes over the memory it may use, the budget gives up the excess and the rates are
    // solved again (a few rounds: each takes the whole excess off the resident weights).
    double budget = no_resident_ ? 0.0 : in.budget;
    Built b = build(budget);
    Plan plan = offload::build_cpu_gpu_plan(p, "scheinfer", b.design);
    double peak = offload::gpu_peak(p, plan, s.gpu);
    for (int round = 0; round < 8 && peak > s.memory && budget > 0; ++round) {
      budget = std::max(0.0, budget - (peak - s.memory));
      b = build(budget);
      plan = offload::build_cpu_gpu_plan(p, "scheinfer", b.design);
      peak = offload::gpu_peak(p, plan, s.gpu);
    }
    const si::GgAssignment& gg = b.gg;
    const double gg_bytes = gg.bytes / in.active, eq5 = b.eq5;
    const std::string gg_source = no_resident_ ? "none (resident: none)" : gg.source;
    nlohmann::ordered_json& per_layer = b.per_layer;
    PlacerResult res;
    res.plan = std::move(plan);
    const si::Hardware& hw = in.hw;
    res.choices = {{"gpu", topo.devices[s.gpu].id},
                   {"cpu", topo.devices[s.cpu].id},
                   {"threads", s.threads},
                   {"memory", s.memory},
                   {"layers", per_layer},
                   {"gg_source", gg_source},
                   {"gg_budget_bytes", budget},
                   {"gg_bytes", gg_bytes},
                   {"gpu_peak_bytes", peak},
                   {"ffn_bytes", in.ffn_bytes},
                   {"eq5_ffn_seconds", eq5},
                   {"fits", {{"gpu", {hw.gpu.alpha, hw.gpu.beta}}, {"cpu", {hw.cpu.alpha, hw.cpu.beta}},
                             {"c2g", {hw.c2g.alpha, hw.c2g.beta}}, {"launch", hw.launch}}}};
    res.message = fmt::format("FFN weights {:.2f} GB: {:.2f} GB resident on {} (GG, {}), the rest on {}; its time model "
                              "puts the FFN blocks at {:.4g} s{}",
                              in.ffn_bytes / 1e9, gg_bytes / 1e9, topo.devices[s.gpu].id, gg_source,
                              topo.devices[s.cpu].id, eq5, in.prompt ? " (prompt, with n_g per layer)" : "");
    if (peak > s.memory) {  // even with no FFN weight resident: infeasible, though the device may hold it
      res.status = RunStatus::Infeasible;
      res.message = fmt::format("its plan peaks at {:.2f} GB on {}, over the {:.2f} GB it may use, with {:.2f} GB of "
                                "FFN weights resident: every op but the FFN's stays on the GPU, with the KV cache "
                                "and activations; {}",
                                peak / 1e9, topo.devices[s.gpu].id, s.memory / 1e9, gg_bytes / 1e9, res.message);
    }
    return res;
  }

 private:
  offload::SetupOptions setup_;
  Yaml steps_;
  bool no_resident_ = false;
  bool layer_launches_ = false;
};

}  // namespace

void register_scheinfer(Registry<PlacerEntry>& r) {
  std::vector<OptionSpec> opts = offload::SetupOptions::specs();
  opts.push_back({"steps", "10", "r_GG (the share resident on the GPU) per layer takes the values i / steps"});
  opts.push_back({"resident", "auto", "auto: r_GG by Eq. 14 within the GPU memory left; none: no FFN weight resident on the "
                                      "GPU (r_GG = 0), as ScheInfer's thread ablation holds it"});
  opts.push_back({"launches", "block", "block: Eq. 5 prices each FFN block with its launch stream free at its start (the "
                                       "paper's); layer: the stream starts after the layer's other launches (attention, "
                                       "norms, adds), which share it"});
  r.add("scheinfer",
        {"ScheInfer: each FFN weight sliced CC (CPU) / CG (copied per use) / GG (resident on the GPU), rates by "
         "its solver from fits profiled on the cost model (docs/placers.md); the rest on the GPU; four streams with host launches",
         opts, PlacerKind::Heuristic, [](const PlacerOptions& o) { return std::make_unique<ScheInfer>(o); },
         offload::offload_facts("llama2-7b", "its plans split FFN weights over the CPU and GPU and launch kernels from host queues")});
}

}  // namespace placesim::scheduler
