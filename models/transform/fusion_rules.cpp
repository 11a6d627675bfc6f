// Fusion rule sets: read from YAML, MOIRAI's Table I, and GEMM epilogues for transformers.
#include <fmt/format.h>

#include "models/transform/fusion.hpp"

namespace placesim::models {

std::vector<FusionRule> parse_fusion_rules(const Yaml& rules) {
  if (!rules.is_seq()) rules.fail("expected a list of fusion rules, each a list of op types: [[conv, bn], ...]");
  std::vector<FusionRule> out;
  for (const Yaml& r : rules.items()) {
    if (!r.is_seq()) r.fail("expected a fusion rule: a list of op types such as [conv, bn, relu]");
    FusionRule rule;
    for (const Yaml& t : r.items()) {
      if (!t.is_scalar() || t.str().empty()) t.fail("expected an op type");
      rule.push_back(t.str());
    }
    if (rule.size() < 2) r.fail(fmt::format("a fusion rule needs at least two op types, got {}", rule.size()));
    out.push_back(std::move(rule));
  }
  return out;
}

const std::vector<FusionRule>& eigen_fusion_rules() {
  static const std::vector<FusionRule> rules = {{"conv", "bn"}, {"conv", "bn", "relu"}, {"conv", "bn", "add", "relu"}};
  return rules;
}

// Transformer graphs have no conv or bn, so Table I fuses nothing in them. What GPU backends do
// fuse there is the GEMM epilogue: cuBLASLt's CUBLASLT_EPILOGUE_BIAS / _GELU / _GELU_BIAS and
// CUTLASS's elementwise epilogues apply the op that consumes a matmul's output before it is
// written (a residual add, GELU, or SwiGLU's gating, which reads the gate and up matmuls).
const std::vector<FusionRule>& epilogue_fusion_rules() {
  static const std::vector<FusionRule> rules = {{"matmul", "add"}, {"matmul", "gelu"}, {"matmul", "swiglu"}};
  return rules;
}

const std::vector<FusionRule>* fusion_rule_set(const std::string& name) {
  if (name == "eigen") return &eigen_fusion_rules();
  if (name == "epilogue") return &epilogue_fusion_rules();
  return nullptr;
}

}  // namespace placesim::models
