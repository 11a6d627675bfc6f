#include "scheduler/placers/offload/scheinfer_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "hw/route_cost.hpp"
#include "models/cost/calibration.hpp"
#include "scheduler/plan/slices.hpp"

namespace placesim::scheduler::scheinfer {
namespace {

using offload::Expert;
using offload::FfnLayer;

// The tokens of the graph's step and its sequences, from an attention op (batch x q_len): what
// every FFN reads, whatever share of them an expert is routed.
std::pair<double, double> step_tokens(const models::Graph& g) {
  for (int op : g.ops())
    if (const auto* a = std::get_if<models::AttentionShape>(&g.nodes[op].shape)) return {a->batch * a->q_len, a->batch};
  throw InputError(fmt::format("scheinfer: graph '{}' has no attention op to read its tokens from", g.name));
}

// ScheInfer's Eq. 3 n of a GEMM (its only work-proportional op class); 0 for any other op.
double work_of(const models::Node& op) {
  const std::optional<models::OpClassWork> w = models::op_class_work(op.shape);
  return w && std::string_view(w->op_class) == "gemm" ? w->n : 0;
}

// alpha and beta of `op` on `dev` from the cost model: its time whole and half-split by
// columns, less the GPU's launch (the host's launch task pays it).
Fit profile(const Problem& p, int op, int dev, int cores) {
  Plan half;
  half.splits[op] = {models::Axis::Cols, std::nullopt, {{dev, 0.5}, {dev, 0.5}}};
  const Problem sliced = sliced_problem(p, half);
  const double launch = p.topo->devices[dev].kind == hw::DeviceKind::Gpu ? p.topo->devices[dev].launch_s : 0;
  const double whole = p.duration(op, dev, cores) - launch;
  const double part = sliced.duration(op, dev, cores) - launch;  // slice 0 keeps the op's index
  const double n = work_of(p.graph->nodes[op]);
  Fit f;
  f.beta = n > 0 ? 2 * (whole - part) / n : 0;
  f.alpha = std::max(0.0, whole - f.beta * n);
  return f;
}

}  // namespace

Inputs scheinfer_inputs(const Problem& p, const offload::SetupOptions::Setup& s, SourceLoc memory_loc,
                        bool layer_launches) {
  const models::Graph& g = *p.graph;
  const hw::Topology& topo = *p.topo;
  Inputs in;
  in.layers = offload::ffn_layers(g, "scheinfer");
  const std::vector<FfnLayer>& layers = in.layers;
  const int first = layers.front().experts.front().col_gemms.front();
  in.hw.gpu = profile(p, first, s.gpu, 0);
  in.hw.cpu = profile(p, first, s.cpu, s.threads);
  const hw::RouteCost pcie = hw::route_cost(topo, topo.host_memory_for(s.gpu), s.gpu);
  in.hw.c2g = {pcie.latency_s, pcie.bandwidth > 0 ? 1 / pcie.bandwidth : 0};
  in.hw.launch = topo.devices[s.gpu].launch_s;

  // The ops of each layer outside its FFN experts: all on the GPU, each launched by the host on
  // the stream the block's launches share.
  std::vector<bool> in_ffn(g.nodes.size(), false);
  for (int op : offload::expert_ops(layers)) in_ffn[op] = true;
  auto launches_before = [&](const FfnLayer& l) {
    if (!layer_launches) return 0.0;
    int n = 0;
    for (int op : g.ops()) n += g.nodes[op].layer == l.layer && !in_ffn[op];
    return n * in.hw.launch;
  };

  // Each layer's block (its experts' GEMMs in stream order), in this step and in generation.
  const auto [tokens, per_step] = step_tokens(g);
  in.tokens = static_cast<int>(std::lround(tokens));
  in.prompt = tokens > per_step;
  double ffn_bytes = 0, largest_layer = 0;
  for (const FfnLayer& l : layers) {
    Block b, gen;
    b.launch_before = gen.launch_before = launches_before(l);
    double bytes = 0;
    for (const Expert& e : l.experts) {
      std::vector<int> gemms = e.col_gemms;
      gemms.push_back(e.row_gemm);
      for (int op : gemms) {
        const Gemm gemm{work_of(g.nodes[op]), offload::param_bytes(g, op)};
        b.gemms.push_back(gemm);
        gen.gemms.push_back({gemm.work * per_step / std::max(tokens, 1.0), gemm.weight_bytes});
        bytes += gemm.weight_bytes;
      }
    }
    in.now.push_back(std::move(b));
    in.generation.push_back(std::move(gen));
    ffn_bytes += bytes;
    in.ffn_bytes += l.weight_bytes;
    largest_layer = std::max(largest_layer, bytes);
  }
  in.active = ffn_bytes / in.ffn_bytes;

  // The GPU memory left for GG slices.
  double fixed = 0, largest_output = 0, layer_fixed = 0;
  for (int op : g.ops()) {
    largest_output = std::max(largest_output, g.nodes[op].output_bytes);
    if (in_ffn[op]) continue;
    fixed += offload::param_bytes(g, op) + g.nodes[op].state_bytes;
    if (g.nodes[op].layer == layers.front().layer) layer_fixed += offload::param_bytes(g, op);
  }
  if (s.memory < layer_fixed)
    throw InputError(memory_loc, fmt::format("scheinfer: memory {:.4g} GB is below one layer's weights that are not "
                                             "sliced ({:.4g} GB of attention and norms), which stay on the GPU",
                                             s.memory / 1e9, layer_fixed / 1e9));
  in.budget = std::max(0.0, s.memory - (fixed + 2 * largest_output + 2 * largest_layer));
  return in;
}

}  // namespace placesim::scheduler::scheinfer
