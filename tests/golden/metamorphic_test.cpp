// Metamorphic tests on whole runs (place, lower, simulate) of the quickstart's model on the
// SortingHat V100 preset: relations that must hold whatever the absolute numbers are.
#include <gtest/gtest.h>

#include "hw/topology_yaml.hpp"
#include "models/generators/transformer.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/placer.hpp"
#include "sim/engine/executor.hpp"

namespace {

using namespace placesim;

scheduler::Problem base_problem() {
  models::TransformerSpec spec;
  spec.arch = "gpt2-large";
  spec.layers = 4;
  spec.seq = 64;
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "t")));
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  return p;
}

double makespan(const scheduler::Problem& p, const char* placer) {
  const auto plan = *scheduler::make_placer(Yaml(YAML::Node(placer), "t")).placer->place(p).plan;
  return to_seconds(engine::simulate(scheduler::lower(p, plan).graph).makespan);
}

// Doubling every bandwidth (links and device memory) and every byte count (parameters,
// activations, memory traffic, edges) leaves every transfer time and every roofline term, and
// so the makespan, unchanged (up to the picosecond rounding of each event).
TEST(Metamorphic, DoublingBandwidthsAndBytesChangesNothing) {
  const scheduler::Problem p = base_problem();
  scheduler::Problem q = p;
  hw::Topology t = *p.topo;
  for (hw::Link& l : t.links) l.bw_ab *= 2, l.bw_ba *= 2;
  for (hw::Device& d : t.devices) d.memory_bw *= 2, d.memory *= 2;
  models::Graph g = *p.graph;
  for (models::Node& n : g.nodes) n.bytes *= 2, n.output_bytes *= 2, n.param_bytes *= 2, n.state_bytes *= 2;
  for (models::Edge& e : g.edges) e.bytes *= 2;
  q.topo = std::make_shared<const hw::Topology>(std::move(t));
  q.graph = std::make_shared<const models::Graph>(std::move(g));
  for (const char* placer : {"single-device", "round-robin"}) {
    const double a = makespan(p, placer), b = makespan(q, placer);
    EXPECT_NEAR(a, b, 1e-9 * a) << placer;
  }
}

// A switch hanging off the host with a link no route takes changes nothing.
TEST(Metamorphic, AnUnusedLinkChangesNothing) {
  const scheduler::Problem p = base_problem();
  std::string text = hw::preset_text("sortinghat-v100");
  text += "  - {a: host, b: spare, bw: 1GB/s, latency: 1us, kind: pcie}\n";
  const size_t at = text.find("devices:\n");
  text.insert(at + 9, "  - {id: spare, type: switch}\n");
  scheduler::Problem q = p;
  q.topo = std::make_shared<const hw::Topology>(hw::load_topology_text(text, "spare.yaml"));
  ASSERT_EQ(q.topo->links.size(), p.topo->links.size() + 1);
  for (const char* placer : {"single-device", "round-robin"}) EXPECT_EQ(makespan(p, placer), makespan(q, placer)) << placer;
}

}  // namespace
