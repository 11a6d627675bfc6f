#include "scheduler/placers/tensor_parallel/decoder_roles.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::scheduler::tp {
namespace {

// The part of a generated op's name after its layer prefix (`l3.qkv` -> `qkv`).
std::string local_name(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool role_of(const models::Node& n, Role& role) {
  const std::string local = local_name(n.name);
  if (n.type == "embedding") role = Role::Embedding;
  else if (n.type == "layernorm" || n.type == "rmsnorm") role = Role::Norm;
  else if (n.type == "attention") role = Role::Attention;
  else if (n.type == "gelu" || n.type == "swiglu") role = Role::Activation;
  else if (n.type == "add") role = Role::Residual;
  else if (n.type == "matmul" && (local == "qkv" || local == "up" || local == "gate" || local == "lm_head")) role = Role::ColumnIn;
  else if (n.type == "matmul" && (local == "out" || local == "down")) role = Role::RowOut;
  else return false;
  return true;
}

}  // namespace

const char* to_string(Role r) {
  switch (r) {
    case Role::Embedding: return "embedding";
    case Role::Norm: return "norm";
    case Role::ColumnIn: return "column-split linear";
    case Role::Attention: return "attention";
    case Role::Activation: return "activation";
    case Role::RowOut: return "row-split linear";
    case Role::Residual: return "residual add";
  }
  return "?";
}

std::vector<DecoderOp> decoder_roles(const models::Graph& g, const std::string& placer) {
  std::vector<DecoderOp> out;
  for (int n : g.ops()) {
    DecoderOp op{n};
    if (!role_of(g.nodes[n], op.role))
      throw InputError(fmt::format("{} places transformer decoder graphs (model: {{generator: transformer, granularity: "
                                   "op}}); op '{}' of type '{}' is not one of their ops",
                                   placer, g.nodes[n].name, g.nodes[n].type));
    out.push_back(op);
  }
  return out;
}

bool owns_params(const models::Graph& g, int op) {
  for (int e : g.in_edges(op)) {
    const int w = g.edges[e].src;
    if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(w).size() != 1) return false;
  }
  return true;
}

}  // namespace placesim::scheduler::tp
