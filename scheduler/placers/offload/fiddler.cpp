// fiddler: Fiddler's CPU-GPU orchestration for mixture-of-experts models (Kamahori et al. 2024),
// a baseline of ScheInfer. Every op but the experts runs on the GPU with its weights resident;
// experts are placed whole: as many as `memory` holds after the rest stay on the GPU, the most
// popular first, fewer if the plan's simulated peak does not fit, and the others compute on the
// CPU from host memory. An expert's weights never cross PCIe: Fiddler moves the activations to
// the CPU instead (the engine prices those transfers). Popularity is what Fiddler profiles
// offline (`popularity: profile`, the default): each expert's expected share of the tokens, which
// the model's router makes equal, so the experts go to the GPU by layer, idle ones too, and a
// step's routing decides only which of its experts find their weights there. `popularity: step`
// ranks them by the tokens this step routes to each instead, a placement that knows the routing
// in advance (an upper bound on what popularity can give; before 2026-12-06 the only mode). A
// dense model's MLP is its layer's one expert, so both put the first layers' MLPs on the GPU and
// run the rest on the CPU. Launches as in cpu_gpu_plan.hpp.
#include <algorithm>
#include <fmt/format.h>

#include "models/ffn_blocks.hpp"
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

// What Fiddler puts on the GPU or leaves on the CPU as a whole: an expert this step computes, or
// the weights of one no op reads this step (an idle expert's, as one unit in `profile`, one weight
// at a time in `step`).
struct Unit {
  const Expert* expert = nullptr;
  std::vector<int> weights;  // when idle
  double bytes = 0;
};

// The units, most popular first. `step`: the experts by the tokens this step routes to them
// (ties: lower layer, then lower expert), then the weights no op reads, in graph order. `profile`:
// every expert, idle ones too, by layer then expert number: the popularity Fiddler profiles
// offline is each expert's expected share, which the model's router (uniform: models/generators/
// transformer_moe.hpp) makes equal, so the step's own routing is not known to the placement.
std::vector<Unit> units_by_popularity(const models::Graph& g, const std::vector<offload::FfnLayer>& layers,
                                      bool profile) {
  std::vector<Unit> units;
  if (profile) {
    const std::vector<models::FfnBlock> blocks = models::ffn_blocks(g);
    for (size_t b = 0, l = 0; b < blocks.size(); ++b) {
      size_t next = 0;  // the layer's next active expert: ffn_layers keeps them in block order
      const bool active_layer = l < layers.size() && layers[l].layer == blocks[b].layer;
      for (const models::FfnExpert& x : blocks[b].experts) {
        Unit u;
        if (!x.gemms.empty() && active_layer) {
          u.expert = &layers[l].experts[next++];
          u.bytes = bytes_of(g, *u.expert);
        } else {
          u.weights = x.weights;
          for (int w : x.weights) u.bytes += g.nodes[w].param_bytes;
        }
        units.push_back(std::move(u));
      }
      l += active_layer;
    }
    return units;
  }
  for (const offload::FfnLayer& l : layers)
    for (const Expert& e : l.experts) units.push_back({&e, {}, bytes_of(g, e)});
  std::stable_sort(units.begin(), units.end(),
                   [&](const Unit& a, const Unit& b) { return load_of(g, *a.expert) > load_of(g, *b.expert); });
  for (size_t w = 0; w < g.nodes.size(); ++w)
    if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(static_cast<int>(w)).empty())
      units.push_back({nullptr, {static_cast<int>(w)}, g.nodes[w].param_bytes});
  return units;
}

class Fiddler final : public Placer {
 public:
  explicit Fiddler(const PlacerOptions& o) : setup_(o), popularity_(o.get("popularity").str()) {
    if (popularity_ != "step" && popularity_ != "profile")
      o.get("popularity").fail(fmt::format("popularity must be step or profile; got {}", popularity_));
  }

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
    const std::vector<Unit> units = units_by_popularity(g, layers, popularity_ == "profile");
    // Units on the GPU while the estimate has room, the most popular first; then, as long as the
    // plan's simulated peak does not fit (activations overlap in ways the estimate misses), the
    // least popular of them back to the CPU.
    std::vector<bool> gpu_side(units.size(), false);
    for (size_t i = 0; i < units.size(); ++i)
      if (used + units[i].bytes <= s.memory) {
        used += units[i].bytes;
        gpu_side[i] = true;
      }
    auto plan_for = [&]() {
      offload::Design d;
      d.cpu = s.cpu;
      d.gpu = s.gpu;
      d.threads = s.threads;
      d.device_of.assign(g.nodes.size(), s.cpu);
      for (int op : g.ops()) d.device_of[op] = s.gpu;
      for (size_t i = 0; i < units.size(); ++i) {
        const int dev = gpu_side[i] ? s.gpu : s.cpu;
        for (int w : units[i].weights) d.device_of[w] = dev;
        if (!units[i].expert) continue;
        const Expert& e = *units[i].expert;
        std::vector<int> ops = e.col_gemms;
        ops.insert(ops.end(), e.between.begin(), e.between.end());
        ops.push_back(e.row_gemm);
        for (int op : ops) d.device_of[op] = dev;
      }
      return offload::build_cpu_gpu_plan(p, "fiddler", d);
    };
    Plan plan = plan_for();
    for (size_t i = units.size(); i-- > 0 && offload::gpu_peak(p, plan, s.gpu) > s.memory;)
      if (gpu_side[i]) {
        gpu_side[i] = false;
        used -= units[i].bytes;
        plan = plan_for();
      }
    int experts = 0, on_gpu = 0;
    for (size_t i = 0; i < units.size(); ++i) {
      experts += units[i].expert != nullptr;
      on_gpu += units[i].expert && gpu_side[i];
    }
    PlacerResult res;
    res.plan = std::move(plan);
    res.choices = {{"experts", experts}, {"experts_on_gpu", on_gpu}, {"gpu_bytes", used}, {"popularity", popularity_}};
    const std::string by = popularity_ == "step" ? "most popular first" : "by layer: a uniform router's profile";
    res.message = fmt::format("{} of {} experts on {} ({}), the rest on {}; the other ops on {}", on_gpu, experts,
                              p.topo->devices[s.gpu].id, by, p.topo->devices[s.cpu].id, p.topo->devices[s.gpu].id);
    return res;
  }

 private:
  offload::SetupOptions setup_;
  std::string popularity_;
};

}  // namespace

std::vector<OptionSpec> fiddler_options() {
  std::vector<OptionSpec> o = offload::SetupOptions::specs();
  o.push_back({"popularity", "profile",
               "how experts are ranked for the GPU: profile (every expert by its expected share, as Fiddler "
               "profiles offline; the model's uniform router makes them equal: by layer) or step (by the tokens "
               "this step routes to each: a placement that knows the step's routing in advance)"});
  return o;
}

void register_fiddler(Registry<PlacerEntry>& r) {
  r.add("fiddler",
        {"Fiddler: experts (a dense MLP: one per layer) on the GPU by popularity while memory lasts, the rest "
         "computed on the CPU, expert weights never copied; every other op on the GPU",
         fiddler_options(), PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<Fiddler>(o); },
         offload::offload_facts("mixtral-8x7b", "its plans launch kernels from host queues and keep experts resident")});
}

}  // namespace placesim::scheduler
