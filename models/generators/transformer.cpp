// Builds the Graph of a transformer forward pass from its blocks (transformer_ops.cpp).
//
// Op granularity: one node per op, with its shape, one Param node per weight, an edge from each
// weight to each op that reads it (bytes = the weight's size) and from each producer to each
// consumer (bytes = the producer's output_bytes).
// Layer granularity: one node per block (embedding, each layer, head) whose flops, bytes and
// state are the sums over its ops, whose output is its last op's and which has no shape (a
// block is many ops; slicing needs op granularity); the weights used only by one block merge
// into one Param node "<block>.w" (with the weights of its idle experts), a weight shared by
// blocks (GPT-2's tied embedding table) stays its own node. Both granularities hold the same
// total work and weights.
#include "models/generators/transformer.hpp"

#include <fmt/format.h>
#include <map>
#include <set>

#include "models/generators/transformer_ops.hpp"

namespace placesim::models {

const char* to_string(Phase p) {
  switch (p) {
    case Phase::Prefill: return "prefill";
    case Phase::Decode: return "decode";
    case Phase::Generate: return "generate";
  }
  return "?";
}
const char* to_string(Granularity g) { return g == Granularity::Op ? "op" : "layer"; }

namespace {

Node param_node(std::string name, double bytes, int layer) {
  Node n;
  n.name = std::move(name);
  n.kind = NodeKind::Param;
  n.type = "param";
  n.param_bytes = bytes;
  n.layer = layer;
  return n;
}

Node op_node(std::string name, std::string type, int layer) {
  Node n;
  n.name = std::move(name);
  n.type = std::move(type);
  n.layer = layer;
  return n;
}

// Adds the Param node on first use, then the edge to the op that reads it.
void read_param(Graph& g, std::map<std::string, int>& params, const std::string& name, double bytes, int layer,
                int op) {
  auto it = params.find(name);
  if (it == params.end()) it = params.emplace(name, g.add_node(param_node(name, bytes, layer))).first;
  g.add_edge(it->second, op, g.nodes[it->second].param_bytes);
}

void build_ops(Graph& g, const std::vector<Block>& blocks, double w) {
  std::map<std::string, int> index, params;
  for (const Block& b : blocks) {
    for (const OpWork& work : b.ops) {
      Node n = op_node(work.name, work.type, b.layer);
      n.flops = work.flops;
      n.bytes = work.bytes;
      n.output_bytes = work.output_bytes;
      n.state_bytes = work.state_bytes;
      n.shape = work.shape;
      const int v = g.add_node(std::move(n));
      index[work.name] = v;
      for (const ParamUse& p : work.params) read_param(g, params, p.name, p.elements * w, b.layer, v);
      for (size_t i = 0; i < work.inputs.size(); ++i) {
        const int src = index.at(work.inputs[i]);
        g.add_edge(src, v, work.input_bytes.empty() ? g.nodes[src].output_bytes : work.input_bytes[i]);
      }
    }
    for (const ParamUse& p : b.idle_params) g.add_node(param_node(p.name, p.elements * w, b.layer));
  }
}

void build_layers(Graph& g, const std::vector<Block>& blocks, double w) {
  // Which blocks read each weight, to tell private weights from shared ones.
  std::map<std::string, std::set<std::string>> readers;
  for (const Block& b : blocks)
    for (const OpWork& op : b.ops)
      for (const ParamUse& p : op.params) readers[p.name].insert(b.name);

  std::map<std::string, int> block_node, params;
  for (const Block& b : blocks) {
    Node n = op_node(b.name, b.type, b.layer);
    std::set<std::string> inside;
    for (const OpWork& op : b.ops) inside.insert(op.name);
    double own_params = 0;  // idle experts' weights are the block's too
    for (const ParamUse& p : b.idle_params) own_params += p.elements;
    std::map<std::string, double> shared;  // name -> elements
    std::set<int> sources;
    for (const OpWork& op : b.ops) {
      n.flops += op.flops;
      n.bytes += op.bytes;
      n.state_bytes += op.state_bytes;
      n.output_bytes = op.output_bytes;
      for (const ParamUse& p : op.params) {
        if (readers.at(p.name).size() == 1) own_params += p.elements;
        else shared[p.name] = p.elements;
      }
      for (const std::string& in : op.inputs)
        if (!inside.contains(in)) sources.insert(block_node.at(in));
    }
    const int v = g.add_node(std::move(n));
    for (const OpWork& op : b.ops) block_node[op.name] = v;
    if (own_params > 0) read_param(g, params, b.name + ".w", own_params * w, b.layer, v);
    for (const auto& [name, elements] : shared) read_param(g, params, name, elements * w, -1, v);
    for (int src : sources) g.add_edge(src, v, g.nodes[src].output_bytes);
  }
}

}  // namespace

Graph generate_transformer(const TransformerSpec& spec) {
  const TransformerArch& arch = arch_of(spec);
  if (spec.phase == Phase::Generate)
    throw InputError("phase generate is a whole generation (a prefill, then decode steps), not one graph");
  if (spec.batch < 1) throw InputError(fmt::format("batch must be >= 1, got {}", spec.batch));
  if (spec.seq < 1) throw InputError(fmt::format("seq must be >= 1, got {}", spec.seq));
  if (arch.positions > 0 && spec.seq > arch.positions)
    throw InputError(fmt::format("seq {} exceeds {}'s {} positions", spec.seq, arch.name, arch.positions));
  if (spec.layers < 0 || spec.layers > arch.layers)
    throw InputError(fmt::format("layers must be between 0 and {} for {}, got {}", arch.layers, arch.name, spec.layers));
  const int layers = spec.layers == 0 ? arch.layers : spec.layers;
  if (!is_moe(arch) && (spec.top_k != 0 || !spec.expert_load.empty()))
    throw InputError(fmt::format("top_k and an expert load apply to mixture-of-experts archs only ({} is dense)", arch.name));

  Graph g;
  g.name = fmt::format("{}-{}-b{}-s{}-{}-{}", arch.name, to_string(spec.phase), spec.batch, spec.seq,
                       to_string(spec.dtype), to_string(spec.granularity));
  if (layers != arch.layers) g.name += fmt::format("-{}l", layers);
  if (is_moe(arch)) g.name += spec.expert_load.empty() ? fmt::format("-seed{}", spec.seed) : "-given-load";
  g.dtype = spec.dtype;
  const std::vector<Block> blocks = transformer_blocks(arch, spec, layers);
  const double w = bytes_per_element(spec.dtype);
  if (spec.granularity == Granularity::Op) build_ops(g, blocks, w);
  else build_layers(g, blocks, w);
  g.validate();
  return g;
}

Generation transformer_generation(const TransformerSpec& spec) {
  const TransformerArch& arch = arch_of(spec);
  if (spec.phase != Phase::Generate)
    throw InputError(fmt::format("phase {} is one step, not a generation", to_string(spec.phase)));
  if (spec.output < 1) throw InputError(fmt::format("output must be >= 1, got {}", spec.output));
  if (spec.kv_stride < 1) throw InputError(fmt::format("kv_stride must be >= 1, got {}", spec.kv_stride));
  if (!spec.expert_load.empty())
    throw InputError("a given expert load is one step's (its tokens); a generation samples each step's");
  // The last decode step attends over seq + output - 1 positions; each must have a row of a
  // learned position table.
  const long last_kv = static_cast<long>(spec.seq) + spec.output - 1;
  if (arch.positions > 0 && last_kv > arch.positions)
    throw InputError(fmt::format("seq {} + output {} needs {} positions; {} has {}", spec.seq, spec.output, last_kv,
                                 arch.name, arch.positions));
  TransformerSpec step = spec;
  step.phase = Phase::Prefill;
  Generation g;
  g.input = spec.seq;
  g.output = spec.output;
  g.kv_stride = spec.kv_stride;
  g.prefill = generate_transformer(step);
  step.phase = Phase::Decode;
  g.decode = [step](int kv) {
    TransformerSpec at = step;
    at.seq = kv;
    at.seed = step.seed + static_cast<std::uint64_t>(kv);  // each step routes its own tokens
    return generate_transformer(at);
  };
  return g;
}

}  // namespace placesim::models
