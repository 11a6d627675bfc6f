#include "scheduler/placers/offload/offload_setup.hpp"

#include <fmt/format.h>
#include <numeric>

#include "models/ffn_blocks.hpp"
#include "scheduler/score_plan.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::offload {
namespace {

// The device an option names, of kind `kind`; `auto`: the topology's first of that kind.
int device_of_kind(const Yaml& v, const hw::Topology& topo, hw::DeviceKind kind, const std::string& placer) {
  const char* word = hw::to_string(kind);
  if (v.str() == "auto") {
    for (size_t d = 0; d < topo.devices.size(); ++d)
      if (topo.devices[d].kind == kind) return static_cast<int>(d);
    v.fail(fmt::format("{} runs on one CPU and one GPU, and '{}' has no {}", placer, topo.name, word));
  }
  const int d = topo.find(v.str());
  if (d < 0 || topo.devices[d].kind != kind)
    v.fail(fmt::format("{}: '{}' is not a {} of '{}'", placer, v.str(), word, topo.name));
  return d;
}

}  // namespace

SetupOptions::SetupOptions(const PlacerOptions& o)
    : gpu_(o.get("gpu")), cpu_(o.get("cpu")), memory_(o.get("memory")), threads_(o.get("threads")) {
  if (threads_.str() != "all" && threads_.integer() < 1)
    threads_.fail(fmt::format("threads must be at least 1 (the CPU cores its ops run on), or all; got {}", threads_.str()));
  if (memory_.str() != "auto" && !(memory_.bytes() > 0))
    memory_.fail(fmt::format("memory must be a positive size (\"12GB\") or auto; got {}", memory_.str()));
}

std::vector<OptionSpec> SetupOptions::specs() {
  return {{"gpu", "auto", "the GPU (a device id), or auto: the topology's first"},
          {"cpu", "auto", "the CPU (a device id), or auto: the topology's first"},
          {"memory", "auto", "GPU memory the placer may fill (\"12GB\"), or auto: all of the GPU's"},
          {"threads", "all", "CPU cores its ops run on: 1 .. the CPU's cores, or all"}};
}

SetupOptions::Setup SetupOptions::resolve(const hw::Topology& topo, const std::string& placer) const {
  Setup s;
  s.gpu = device_of_kind(gpu_, topo, hw::DeviceKind::Gpu, placer);
  s.cpu = device_of_kind(cpu_, topo, hw::DeviceKind::Cpu, placer);
  const hw::Device& gpu = topo.devices[s.gpu];
  s.memory = gpu.memory;
  if (memory_.str() != "auto") {
    s.memory = memory_.bytes();
    if (s.memory > gpu.memory)
      memory_.fail(fmt::format("{}: memory {:.4g} GB is more than '{}' has ({:.4g} GB)", placer, s.memory / 1e9, gpu.id,
                               gpu.memory / 1e9));
  }
  if (threads_.str() != "all") {
    s.threads = static_cast<int>(threads_.integer());
    if (s.threads > topo.devices[s.cpu].cores)
      threads_.fail(fmt::format("{}: threads is {}, but '{}' has {} cores", placer, s.threads, topo.devices[s.cpu].id,
                                topo.devices[s.cpu].cores));
  }
  return s;
}

std::vector<FfnLayer> ffn_layers(const models::Graph& g, const std::string& placer) {
  std::vector<models::FfnBlock> blocks;
  try {
    blocks = models::ffn_blocks(g);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{} places the FFN blocks of transformer graphs (model: {{generator: transformer, "
                                 "granularity: op}}): {}",
                                 placer, e.detail()));
  }
  std::vector<FfnLayer> out;
  for (const models::FfnBlock& b : blocks) {
    FfnLayer l;
    l.layer = b.layer;
    for (const models::FfnExpert& x : b.experts) {
      l.weight_bytes += std::accumulate(x.weights.begin(), x.weights.end(), 0.0,
                                        [&](double sum, int w) { return sum + g.nodes[w].param_bytes; });
      if (x.gemms.empty()) continue;  // idle: no token routed to it
      Expert e;
      e.col_gemms.assign(x.gemms.begin(), x.gemms.end() - 1);
      e.row_gemm = x.gemms.back();
      // The activation between them: what the row GEMM reads besides its weight.
      for (int in : g.in_edges(e.row_gemm))
        if (g.nodes[g.edges[in].src].kind == models::NodeKind::Op) e.between.push_back(g.edges[in].src);
      l.experts.push_back(std::move(e));
    }
    if (l.experts.empty())
      throw InputError(fmt::format("{}: layer {} of graph '{}' routes no token to any expert", placer, b.layer, g.name));
    out.push_back(std::move(l));
  }
  if (out.empty()) throw InputError(fmt::format("{}: graph '{}' has no FFN blocks to place", placer, g.name));
  return out;
}

double gpu_peak(const Problem& p, const Plan& plan, int gpu) {
  for (auto& [id, peak] : score_plan(p, plan).memory.peak)
    if (id == p.topo->devices[gpu].id) return peak;
  return 0;
}

std::vector<int> expert_ops(const std::vector<FfnLayer>& layers) {
  std::vector<int> ops;
  for (const FfnLayer& l : layers)
    for (const Expert& e : l.experts) {
      ops.insert(ops.end(), e.col_gemms.begin(), e.col_gemms.end());
      ops.insert(ops.end(), e.between.begin(), e.between.end());
      ops.push_back(e.row_gemm);
    }
  return ops;
}

PlacerFacts offload_facts(const std::string& arch, const std::string& why) {
  return {.needs = {.gpu = true, .cpu = true, .transformer = true},
          .bounded_by = {},
          .unbounded_why = why,
          .generation = GenerationWeights::EveryStep,
          .predicts = false,
          .sample = {.hardware = "scheinfer-c", .arch = arch, .phase = models::Phase::Decode}};
}

}  // namespace placesim::scheduler::offload
