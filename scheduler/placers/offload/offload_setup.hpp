// What the one-CPU, one-GPU placers (scheinfer, llamacpp-offload, fiddler) share: their options
// (`gpu`, `cpu`, `memory`, `threads`) resolved on a problem, and the decoder's FFN experts they
// slice or move.
#pragma once

#include <string>
#include <vector>

#include "scheduler/placer.hpp"
#include "scheduler/placers/offload/cpu_gpu_plan.hpp"

namespace placesim::scheduler::offload {

// The options as given: kept as values, resolved per problem (place() runs on many threads).
class SetupOptions {
 public:
  explicit SetupOptions(const PlacerOptions& o);
  static std::vector<OptionSpec> specs();  // gpu, cpu, memory, threads

  struct Setup {
    int cpu = -1, gpu = -1;
    int threads = 0;    // cores the CPU's ops run on; 0: all
    double memory = 0;  // bytes of the GPU the placer may fill
  };
  // InputError at the option for a device that is not a GPU / CPU of the topology (or a
  // topology without one), a memory budget above the GPU's memory, a thread count above the
  // CPU's cores.
  Setup resolve(const hw::Topology& topo, const std::string& placer) const;
  SourceLoc memory_loc() const { return memory_.loc(); }

 private:
  Yaml gpu_, cpu_, memory_, threads_;
};

// One transformer layer's FFN: the experts this step computes (a dense MLP is one), each an
// Expert of cpu_gpu_plan.hpp, and the weight bytes of all its experts, idle ones too.
struct FfnLayer {
  int layer = -1;
  std::vector<Expert> experts;
  double weight_bytes = 0;
};

// The FFN of every layer of a graph from the transformer generator (models/ffn_blocks.hpp), in
// layer order; InputError naming `placer` for any other graph.
std::vector<FfnLayer> ffn_layers(const models::Graph& g, const std::string& placer);

// The simulated peak memory of `gpu` under the plan: how the baselines check that what they
// estimated to fit does (activations live together in ways a per-op estimate misses).
double gpu_peak(const Problem& p, const Plan& plan, int gpu);

// Every op of the layers' experts.
std::vector<int> expert_ops(const std::vector<FfnLayer>& layers);

// What the three placers are (placer_facts.hpp): they need a GPU, a CPU and a transformer; their
// plans stream weights in every decode step as the point's weights mode says; the critical-path
// bound does not hold for them, for the reason `why` gives; they make no prediction; their sample is a decode step of
// `arch` on ScheInfer's Testbed-C, weights in host memory.
PlacerFacts offload_facts(const std::string& arch, const std::string& why);

}  // namespace placesim::scheduler::offload
