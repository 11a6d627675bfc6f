// Plan JSON: parsed against a two-layer graph on the SortingHat station (the golden test's
// problem, tests/golden/two-layer.json), lowered and simulated.
#include "fuzz_support.hpp"
#include "models/graph_json.hpp"
#include "scheduler/plan/json.hpp"

namespace {

const char* kGraph = R"({"name": "two-layer", "dtype": "fp16",
  "nodes": [{"name": "w1", "param_bytes": 24e6}, {"name": "w2", "param_bytes": 24e6},
            {"name": "l1", "type": "matmul", "layer": 0, "flops": 2.5e12, "bytes": 9e9, "output_bytes": 4.5e6},
            {"name": "l2", "type": "matmul", "layer": 1, "flops": 1.25e12, "bytes": 18e9, "output_bytes": 1e6}],
  "edges": [{"src": "w1", "dst": "l1"}, {"src": "w2", "dst": "l2"}, {"src": "l1", "dst": "l2"}]})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace placesim;
  static const scheduler::Problem p =
      fuzz::problem_on_preset(models::parse_graph(Json::load_string(kGraph, "two-layer.json")));
  try {
    const scheduler::Plan plan = scheduler::parse_plan(Json::load_string(fuzz::text_of(data, size), "p.json"), *p.graph, *p.topo);
    // Collectives of millions of chunks are valid (under the lowering's task cap) and take
    // seconds each to simulate: they only slow the fuzzer down, as large graphs would.
    std::int64_t chunks = 0;
    for (const scheduler::PlanCollective& c : plan.collectives) chunks += c.chunks;
    if (chunks > fuzz::kMaxChunks) return 0;
    scheduler::score_plan(p, plan);
  } catch (const InputError&) {
  }
  return 0;
}
