// Finds each layer's FFN block by the transformer generator's op names (ffn_blocks.hpp).
#include "models/ffn_blocks.hpp"

#include <fmt/format.h>
#include <set>

namespace placesim::models {

namespace {

const char* const kReads = "ffn_blocks reads the op names of the transformer generator at op granularity";

int node(const Graph& g, const std::string& name, NodeKind kind) {
  const int v = g.find(name);
  if (v < 0) throw InputError(fmt::format("graph '{}' has no {} '{}' ({})", g.name,
                                          kind == NodeKind::Op ? "op" : "weight", name, kReads));
  if (g.nodes[v].kind != kind)
    throw InputError(fmt::format("'{}' is not {} ({})", name, kind == NodeKind::Op ? "an op" : "a weight", kReads));
  return v;
}

int gemm(const Graph& g, const std::string& name) {
  const int v = node(g, name, NodeKind::Op);
  if (g.nodes[v].type != "matmul" || !std::holds_alternative<GemmShape>(g.nodes[v].shape))
    throw InputError(fmt::format("op '{}' is a {}, not a matmul with a gemm shape ({})", name, g.nodes[v].type, kReads));
  return v;
}

// The expert whose ops and weights are named prefix + "up", ...: idle when it has weights and
// no ops.
FfnExpert expert(const Graph& g, const std::string& prefix) {
  FfnExpert x;
  const bool gated = g.find(prefix + "gate.w") >= 0;
  const bool idle = g.find(prefix + "up") < 0;
  for (const char* proj : gated ? std::vector<const char*>{"up", "gate", "down"} : std::vector<const char*>{"up", "down"}) {
    x.weights.push_back(node(g, prefix + proj + ".w", NodeKind::Param));
    if (!idle) x.gemms.push_back(gemm(g, prefix + proj));
  }
  if (!idle) {
    const auto& s = std::get<GemmShape>(g.nodes[x.gemms[0]].shape);
    x.tokens = s.batch * s.m;
  }
  return x;
}

FfnBlock block(const Graph& g, int layer) {
  const std::string p = fmt::format("l{}.", layer);
  FfnBlock b;
  b.layer = layer;
  const int begin = node(g, p + "ln2", NodeKind::Op), end = node(g, p + "add2", NodeKind::Op);
  if (g.find(p + "router") < 0) {
    b.experts.push_back(expert(g, p));
  } else {
    b.router = gemm(g, p + "router");
    for (int e = 0; g.find(fmt::format("{}expert{}.up.w", p, e)) >= 0; ++e) {
      b.experts.push_back(expert(g, fmt::format("{}expert{}.", p, e)));
      b.experts.back().index = e;
    }
    if (b.experts.empty())
      throw InputError(fmt::format("graph '{}' has op '{}router' but no weight '{}expert0.up.w' ({})", g.name, p, p, kReads));
    if (g.find(p + "shared.up") >= 0) {
      b.experts.push_back(expert(g, p + "shared."));
      b.experts.back().shared = true;
    }
  }
  // The generator adds a layer's ops in execution order, so the block is the layer's ops from
  // its norm to its residual add by index.
  std::set<int> gemms = {b.router};
  for (const FfnExpert& x : b.experts) gemms.insert(x.gemms.begin(), x.gemms.end());
  for (int v = begin; v <= end; ++v)
    if (g.nodes[v].kind == NodeKind::Op && g.nodes[v].layer == layer && !gemms.contains(v)) b.others.push_back(v);
  return b;
}

}  // namespace

std::vector<FfnBlock> ffn_blocks(const Graph& g) {
  std::set<int> layers;
  for (int v : g.ops()) {
    const Node& n = g.nodes[v];
    if (n.layer < 0) continue;
    if (n.name.find('.') == std::string::npos)
      throw InputError(fmt::format("op '{}' is a whole layer (granularity layer); {}", n.name, kReads));
    layers.insert(n.layer);
  }
  if (layers.empty()) throw InputError(fmt::format("graph '{}' has no op 'l0.ln2' (no layer; {})", g.name, kReads));
  std::vector<FfnBlock> blocks;
  for (int l : layers) blocks.push_back(block(g, l));
  return blocks;
}

}  // namespace placesim::models
