// fiddler: Fiddler's CPU-GPU orchestration for mixture-of-experts models (Kamahori et al. 2024),
// a baseline of ScheInfer. Every op but the experts runs on the GPU with its weights resident;
// experts are placed whole: as many as `memory` holds after the rest stay on the GPU, the most
// popular first (most tokens routed to them in the graph's expert load; ties: lower layer, then
// lower expert), fewer if the plan's simulated peak does not fit, and the others compute on the
// CPU from host memory. An expert's weights never
// cross PCIe: Fiddler moves the activations to the CPU instead (the engine prices those
// transfers). A dense model's MLP is its layer's one expert, all equally popular, so the first
// layers' MLPs stay on the GPU and the rest run on the CPU. Launches as in cpu_gpu_plan.hpp.
#include <algorithm>
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/offload/offload_setup.hpp"

namespace placesim::scheduler {
namespace {

using offload::Expert;

// Tokens routed to an expert: what its first GEMM computes.
double load_of(const models::Graph& g, const Expert& e) {
  const auto* s = std::get_if<models::GemmShape>(&g.nodes[e.col_gemms.front()].shape);
  return s ? s->batch * s->m : 0;
}

double bytes_of(const models::Graph& g, const Expert& e) {
  double b = offload::param_bytes(g, e.row_gemm);
  for (int op : e.col_gemms) b += offload::param_bytes(g, op);
  for (int op : e.between) b += offload::param_bytes(g, op);
  return b;
}

class Fiddler final : public Placer {
 public:
  explicit Fiddler(const PlacerOptions& o) : setup_(o) {}

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const auto s = setup_.resolve(*p.topo, "fiddler");
    const std::vector<offload::FfnLayer> layers = offload::ffn_layers(g, "fiddler");
    std::vector<bool> in_ffn(g.nodes.size(), false);
    for (int op : offload::expert_ops(layers)) in_ffn[op] = true;
    double used = 0, largest_output = 0;
    for (int op : g.ops()) {
      largest_output = std::max(largest_output, g.nodes[op].output_bytes);
      if (!in_ffn[op]) used += offload::param_bytes(g, op) + g.nodes[op].state_bytes;
    }
    used += 2 * largest_output;
    std::vector<const Expert*> experts;
    for (const offload::FfnLayer& l : layers)
      for (const Expert& e : l.experts) experts.push_back(&e);
    std::stable_sort(experts.begin(), experts.end(),
                     [&](const Expert* a, const Expert* b) { return load_of(g, *a) > load_of(g, *b); });
    // Experts on the GPU while the estimate has room, the most popular first; then, as long as the
    // plan's simulated peak does not fit (activations overlap in ways the estimate misses), the
    // least popular of them back to the CPU.
    std::vector<bool> gpu_side(experts.size(), false);
    int on_gpu = 0;
    for (size_t i = 0; i < experts.size(); ++i)
      if (used + bytes_of(g, *experts[i]) <= s.memory) {
        used += bytes_of(g, *experts[i]);
        gpu_side[i] = true;
        ++on_gpu;
      }
    // Weights no op reads this step (idle experts, the least popular) likewise, after the others.
    std::vector<int> idle_on(g.nodes.size(), s.cpu);
    for (size_t w = 0; w < g.nodes.size(); ++w)
      if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(static_cast<int>(w)).empty() &&
          used + g.nodes[w].param_bytes <= s.memory) {
        used += g.nodes[w].param_bytes;
        idle_on[w] = s.gpu;
      }
    auto plan_for = [&]() {
      offload::Design d;
      d.cpu = s.cpu;
      d.gpu = s.gpu;
      d.threads = s.threads;
      d.device_of = idle_on;
      for (int op : g.ops()) d.device_of[op] = s.gpu;
      for (size_t i = 0; i < experts.size(); ++i) {
        const Expert& e = *experts[i];
        std::vector<int> ops = e.col_gemms;
        ops.insert(ops.end(), e.between.begin(), e.between.end());
        ops.push_back(e.row_gemm);
        for (int op : ops) d.device_of[op] = gpu_side[i] ? s.gpu : s.cpu;
      }
      return offload::build_cpu_gpu_plan(p, "fiddler", d);
    };
    Plan plan = plan_for();
    for (size_t w = g.nodes.size(); w-- > 0 && offload::gpu_peak(p, plan, s.gpu) > s.memory;)
      if (idle_on[w] == s.gpu) {
        idle_on[w] = s.cpu;
        used -= g.nodes[w].param_bytes;
        plan = plan_for();
      }
    for (size_t i = experts.size(); i-- > 0 && offload::gpu_peak(p, plan, s.gpu) > s.memory;)
      if (gpu_side[i]) {
        gpu_side[i] = false;
        --on_gpu;
        used -= bytes_of(g, *experts[i]);
        plan = plan_for();
      }
    PlacerResult res;
    res.plan = std::move(plan);
    res.choices = {{"experts", experts.size()}, {"experts_on_gpu", on_gpu}, {"gpu_bytes", used}};
    res.message = fmt::format("{} of {} experts on {} (most popular first), the rest on {}; the other ops on {}",
                              on_gpu, experts.size(), p.topo->devices[s.gpu].id, p.topo->devices[s.cpu].id,
                              p.topo->devices[s.gpu].id);
    return res;
  }

 private:
  offload::SetupOptions setup_;
};

}  // namespace

void register_fiddler(Registry<PlacerEntry>& r) {
  r.add("fiddler",
        {"Fiddler: experts (a dense MLP: one per layer) on the GPU by popularity while memory lasts, the rest "
         "computed on the CPU, expert weights never copied; every other op on the GPU",
         offload::SetupOptions::specs(), PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<Fiddler>(o); },
         offload::offload_facts("mixtral-8x7b", "its plans launch kernels from host queues and keep experts resident")});
}

}  // namespace placesim::scheduler
