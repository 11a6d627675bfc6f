// Every placer on a mixture-of-experts step whose idle experts have weights no op reads (Param
// nodes without edges): each places it, and its plan simulates, or (the tensor-parallel ones)
// refuses it with an InputError. Mixtral 8x7B cut to 2 layers, decode of one token: 6 of 8 experts idle per layer.
#include <gtest/gtest.h>

#include "support.hpp"

namespace {

using namespace placers_test;

models::Graph mixtral_decode_2_layers() {
  models::TransformerSpec spec;
  spec.arch = "mixtral-8x7b";
  spec.layers = 2;
  spec.batch = 1;
  spec.seq = 64;
  spec.phase = models::Phase::Decode;
  spec.dtype = models::DType::INT4;
  return models::generate_transformer(spec);
}

TEST(MoePlacers, EveryPlacerPlacesOrRefusesIdleExperts) {
  const models::Graph g = mixtral_decode_2_layers();
  int idle = 0;
  for (int p : g.params()) idle += g.out_edges(p).empty();
  ASSERT_EQ(idle, 2 * 6 * 3);  // 2 layers x 6 idle experts x (up, gate, down)
  for (const char* preset : {"scheinfer-a", "sortinghat-v100"})
    for (auto weights : {scheduler::WeightsMode::Host, scheduler::WeightsMode::Resident}) {
      const auto p = problem(g, hw::load_topology(Yaml(YAML::Node(preset), "test")), weights);
      for (auto& [name, entry] : scheduler::placers().all()) {
        if (entry.kind == scheduler::PlacerKind::Given) continue;  // replays a plan file
        SCOPED_TRACE(std::string(preset) + " " + name);
        scheduler::PlacerResult r;
        try {
          r = run_placer(suite_spec(name), p);
        } catch (const InputError& e) {
          // Only the tensor-parallel placers refuse it: their roles are a dense decoder's.
          EXPECT_TRUE(entry.splits_ops) << e.what();
          continue;
        }
        if (r.plan) {
          EXPECT_GT(simulate(p, *r.plan).makespan, 0);
        }
      }
    }
}

}  // namespace
