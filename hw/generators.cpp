#include "hw/generators.hpp"

#include <fmt/format.h>

namespace placesim::hw {

Generated run_generator(const Yaml& generator, const Yaml& root) {
  const std::string name = generator.str();
  if (name != "asymgroup") generator.fail(fmt::format("unknown generator '{}' (generators: asymgroup)", name));
  const Yaml nodes = root.at("nodes");
  Generated g{"asymgroup-s0", {}};
  auto add = [&](const Yaml& gpus, int count) {
    const std::int64_t k = gpus.integer();
    if (k != 1 && k != 2) gpus.fail(fmt::format("expected 1 or 2 GPUs per node (AsymGroup's A100 nodes), got '{}'", gpus.str()));
    g.nodes.push_back(NodeGroup{fmt::format("a100x{}", k), gpus.loc(), count});
  };
  if (nodes.is_map()) {  // {count: N, gpus: 1}: N alike nodes, as a sweep over node counts wants
    nodes.allow_keys({"count", "gpus"});
    const std::int64_t count = nodes.at("count").integer();
    if (count < 1 || count > kMaxClusterNodes)
      nodes.at("count").fail(fmt::format("expected 1 to {} nodes, got '{}' ({})", kMaxClusterNodes,
                                         nodes.at("count").str(), kMaxClusterNodesWhy));
    add(nodes.at("gpus"), static_cast<int>(count));
    return g;
  }
  if (!nodes.is_seq() || nodes.node().size() == 0)
    nodes.fail("expected a non-empty list of GPUs per node (1 or 2) such as [2, 1, 1, 2], or {count: N, gpus: 1}");
  for (const Yaml& n : nodes.items()) add(n, 1);
  return g;
}

}  // namespace placesim::hw
