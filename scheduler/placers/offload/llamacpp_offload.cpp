// llamacpp-offload: llama.cpp's layer offload (`--n-gpu-layers N`), the baseline ScheInfer is
// measured against. Whole layers run on the GPU with their weights (and KV cache) resident there,
// the others on the CPU from host memory. As llama.cpp assigns them (llama.cpp's model loader:
// i_gpu_start = n_layer - n_gpu_layers), the offloaded layers are the last ones, the output
// layer (final norm and head) goes to the GPU only when every layer is offloaded
// (n_gpu_layers > n_layer), and the token embedding stays on the CPU. `layers: auto` offloads as
// many as `memory` holds (each with its weights, its idle experts' too, KV cache, and room for
// twice the largest output); nothing is copied per use. Launches as in cpu_gpu_plan.hpp (the GPU's kernels on
// `host.launch`). With `auto`, the count is then lowered until the plan's simulated peak fits
// too (the estimate misses how activations overlap).
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/offload/offload_setup.hpp"

namespace placesim::scheduler {
namespace {

class LlamaCppOffload final : public Placer {
 public:
  explicit LlamaCppOffload(const PlacerOptions& o) : setup_(o), layers_(o.get("layers")) {
    if (layers_.str() != "auto" && layers_.integer() < 0)
      layers_.fail(fmt::format("layers must be a count >= 0 of layers to offload, or auto; got {}", layers_.str()));
  }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const auto s = setup_.resolve(*p.topo, "llamacpp-offload");
    offload::ffn_layers(g, "llamacpp-offload");  // refuses a graph without a transformer's layers
    int n_layer = 0;
    for (int op : g.ops()) n_layer = std::max(n_layer, g.nodes[op].layer + 1);
    // Bytes each layer (and the output layer, index n_layer) holds on the device it runs on.
    std::vector<double> bytes(n_layer + 1, 0.0);
    double largest_output = 0;
    for (int op : g.ops()) {
      const models::Node& n = g.nodes[op];
      largest_output = std::max(largest_output, n.output_bytes);
      if (n.type == "embedding") continue;
      bytes[n.layer >= 0 ? n.layer : n_layer] += offload::param_bytes(g, op) + n.state_bytes;
    }
    for (size_t w = 0; w < g.nodes.size(); ++w)  // weights no op reads this step: idle experts'
      if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(static_cast<int>(w)).empty())
        bytes[g.nodes[w].layer >= 0 && g.nodes[w].layer < n_layer ? g.nodes[w].layer : n_layer] += g.nodes[w].param_bytes;
    int ngl = 0;
    if (layers_.str() == "auto") {
      double used = 2 * largest_output;
      // Offload order: the last layer first, down to layer 0, then the output layer.
      for (int k = 1; k <= n_layer + 1; ++k) {
        const int unit = k <= n_layer ? n_layer - k : n_layer;
        if (used + bytes[unit] > s.memory) break;
        used += bytes[unit];
        ngl = k;
      }
    } else {
      ngl = static_cast<int>(std::min<std::int64_t>(layers_.integer(), n_layer + 1));
    }
    // The estimate leaves out how activations overlap: with `auto`, fewer layers until the
    // simulated peak fits too.
    auto plan_for = [&](int k) {
      const int first_gpu = n_layer - std::min(k, n_layer);
      offload::Design d;
      d.cpu = s.cpu;
      d.gpu = s.gpu;
      d.threads = s.threads;
      d.device_of.assign(g.nodes.size(), s.cpu);
      for (size_t v = 0; v < g.nodes.size(); ++v) {
        const models::Node& n = g.nodes[v];
        const bool on_gpu = n.type != "embedding" && (n.layer >= 0 ? n.layer >= first_gpu : k > n_layer);
        if (on_gpu) d.device_of[v] = s.gpu;
      }
      return offload::build_cpu_gpu_plan(p, "llamacpp-offload", d);
    };
    Plan plan = plan_for(ngl);
    while (layers_.str() == "auto" && ngl > 0 && offload::gpu_peak(p, plan, s.gpu) > s.memory) plan = plan_for(--ngl);
    const int first_gpu = n_layer - std::min(ngl, n_layer);
    PlacerResult res;
    res.plan = std::move(plan);
    res.choices = {{"n_gpu_layers", ngl}, {"layers", n_layer}, {"first_gpu_layer", first_gpu},
                   {"output_on_gpu", ngl > n_layer}};
    res.message = fmt::format("n_gpu_layers {}: layers {}..{} and {} on {}, the rest on {}", ngl, first_gpu,
                              n_layer - 1, ngl > n_layer ? "the output layer" : "not the output layer",
                              p.topo->devices[s.gpu].id, p.topo->devices[s.cpu].id);
    return res;
  }

 private:
  offload::SetupOptions setup_;
  Yaml layers_;
};

}  // namespace

void register_llamacpp_offload(Registry<PlacerEntry>& r) {
  std::vector<OptionSpec> opts = offload::SetupOptions::specs();
  opts.push_back({"layers", "auto", "n_gpu_layers: layers offloaded (the last ones; above the layer count also the "
                                    "output layer), or auto: as many as memory holds"});
  r.add("llamacpp-offload",
        {"llama.cpp's --n-gpu-layers: the last whole layers on the GPU (weights and KV cache resident), the rest on "
         "the CPU; the output layer on the GPU only when every layer is",
         opts, PlacerKind::Heuristic, [](const PlacerOptions& o) { return std::make_unique<LlamaCppOffload>(o); },
         offload::offload_facts("llama2-7b", "its plans launch kernels from host queues and keep the last layers resident")});
}

}  // namespace placesim::scheduler
