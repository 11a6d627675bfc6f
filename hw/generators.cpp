#include "hw/generators.hpp"

#include <fmt/format.h>

namespace placesim::hw {

Generated run_generator(const Yaml& generator, const Yaml& root) {
  const std::string name = generator.str();
  if (name != "asymgroup") generator.fail(fmt::format("unknown generator '{}' (generators: asymgroup)", name));
  const Yaml nodes = root.at("nodes");
  if (!nodes.is_seq() || nodes.node().size() == 0)
    nodes.fail("expected a non-empty list of GPUs per node (1 or 2) such as [2, 1, 1, 2]");
  Generated g{"asymgroup-s0", {}};
  for (const Yaml& n : nodes.items()) {
    const std::int64_t gpus = n.integer();
    if (gpus != 1 && gpus != 2) n.fail(fmt::format("expected 1 or 2 GPUs per node (AsymGroup's A100 nodes), got '{}'", n.str()));
    g.nodes.push_back(NodeGroup{fmt::format("a100x{}", gpus), n.loc(), 1});
  }
  return g;
}

}  // namespace placesim::hw
