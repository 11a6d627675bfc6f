#include "scheduler/placer_facts.hpp"

#include <fmt/format.h>
#include <memory>

#include "hw/topology_yaml.hpp"
#include "models/cost/cost_model.hpp"
#include "models/generators/random_dag.hpp"

namespace placesim::scheduler {

std::vector<std::string> describe(const PlacerNeeds& n) {
  std::vector<std::string> out;
  if (n.resident_weights) out.push_back("weights: resident");
  if (n.gpu) out.push_back(n.cpu ? "a GPU and a CPU" : "a GPU");
  if (n.transformer)
    out.push_back(fmt::format("a {}transformer model at op granularity (generator: transformer)",
                              n.dense ? "dense (no experts) " : ""));
  return out;
}

const char* to_string(GenerationWeights w) { return w == GenerationWeights::LoadedOnce ? "loaded once" : "every step"; }

Problem make_sample(const SampleProblem& s) {
  models::Graph g;
  if (s.arch == "random-dag") {
    models::RandomDagSpec spec;
    spec.depth = 2 * s.layers + 2;
    g = models::generate_random_dag(spec);
  } else {
    models::TransformerSpec spec;
    spec.arch = s.arch;
    spec.phase = s.phase;
    spec.granularity = s.granularity;
    spec.layers = s.layers;
    spec.seq = 64;
    g = models::generate_transformer(spec);
  }
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node(s.hardware), "sample")));
  p.graph = std::make_shared<const models::Graph>(std::move(g));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = s.weights;
  return p;
}

}  // namespace placesim::scheduler
