// Direct host access by a gather reads rows (models::param_read_bytes; scheduler/lower/lower.hpp): an
// embedding lookup of batch x seq tokens moves batch x seq x hidden x dtype bytes of each table
// it reads, not the tables; any other op still reads all of its parameters.
#include "models/generators/transformer.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using Via = scheduler::ParamDelivery::Via;

// The first `layers` layers of `arch`, batch 2, seq 16, fp16, everything on gpu0 of
// sortinghat-v100 with the embedding's tables (and layer 0's QKV weight) read by DHA.
struct Dha {
  Problem p;
  Outcome r;
};

Dha run_dha(const std::string& arch) {
  models::TransformerSpec spec;
  spec.arch = arch;
  spec.layers = 1;
  spec.batch = 2;
  spec.seq = 16;
  Problem p;
  p.topo = std::make_shared<const hw::Topology>(preset("sortinghat-v100"));
  p.graph = std::make_shared<const models::Graph>(models::generate_transformer(spec));
  p.cost = std::make_shared<const models::RooflineCost>();
  p.weights = scheduler::WeightsMode::Host;
  std::vector<std::pair<std::string, std::string>> where;
  for (int op : p.graph->ops()) where.emplace_back(p.graph->nodes[op].name, "gpu0");
  scheduler::BuildOptions o;
  const int gpu = p.topo->index("gpu0");
  for (const char* w : {"embed.wte", "embed.wpe", "l0.qkv.w"})
    if (const int n = p.graph->find(w); n >= 0) o.params[{n, gpu}].via = Via::Dha;
  const Plan plan = plan_for(p, where, o);
  Outcome r = run(p, plan);
  return {std::move(p), std::move(r)};
}

TEST(DhaGather, AnEmbeddingMovesTheRowsItReads) {
  // gpt2-large: hidden 1280, two tables (tokens, positions); 2 x 16 = 32 rows of 1280 fp16
  // elements from each: 32 x 1280 x 2 = 81,920 bytes a table, 163,840 in all (the tables are
  // 128.7 MB and 2.6 MB).
  const Dha gpt2 = run_dha("gpt2-large");
  EXPECT_EQ(gpt2.r.task("embed").kind, engine::TaskKind::Dha);
  EXPECT_DOUBLE_EQ(gpt2.r.task("embed").bytes, 2 * 32 * 1280 * 2.0);
  // ... and those bytes cross every link of the route from host memory: host -> bus0 -> gpu0.
  for (const engine::Use& u : gpt2.r.task("embed").uses) {
    if (gpt2.r.low.resource_link[u.resource] < 0) continue;  // the GPU itself
    EXPECT_DOUBLE_EQ(u.amount, 2 * 32 * 1280 * 2.0);
  }
  // openllama-3b: hidden 3200, one table: 32 x 3200 x 2 = 204,800 bytes.
  const Dha llama = run_dha("openllama-3b");
  EXPECT_DOUBLE_EQ(llama.r.task("embed").bytes, 32 * 3200 * 2.0);
}

TEST(DhaGather, AnyOtherOpReadsItsWholeParameter) {
  // Layer 0's QKV projection of gpt2-large: a 1280 x 3840 weight (and its bias), fp16: all of it.
  const Dha gpt2 = run_dha("gpt2-large");
  const int w = gpt2.p.graph->find("l0.qkv.w");
  ASSERT_GE(w, 0);
  EXPECT_DOUBLE_EQ(gpt2.r.task("l0.qkv").bytes, gpt2.p.graph->nodes[w].param_bytes);
  EXPECT_GE(gpt2.p.graph->nodes[w].param_bytes, 1280 * 3840 * 2.0);
}

}  // namespace
