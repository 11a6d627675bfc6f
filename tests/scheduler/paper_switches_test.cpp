// The hardware switches that put a paper's assumption back (docs/execution.md, "Papers'
// assumptions"): each changes exactly the assumption it names, worked by hand from the loaded
// topology's own figures.
//   network: uncontended  every transfer alone on its route (no shared link, copy engine or
//                         memory bandwidth); collectives take their closed forms (that one in
//                         collectives_test.cpp, beside the same ring on links)
//   memory: unlimited     no device runs out of memory; peaks are still measured
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

hw::Topology with(const std::string& preset_name, const std::string& switches) {
  return hw::load_topology(Yaml(YAML::Load("{include: " + preset_name + ", " + switches + "}"), "test"));
}

constexpr double S = 1.2e9;  // bytes of each parameter

// Two models on GPUs that share one PCIe bus (SortingHat's Fig. 2(a)): with links their copies
// share the bus's uplink, 2L + 4S/B; alone on their routes each GPU copies its two parameters
// in 2(L + S/B), as on GPUs of different buses.
TEST(PaperSwitches, UncontendedCopiesDoNotShareABus) {
  const char* g = R"({"nodes": [
      {"name": "wa0", "param_bytes": 1.2e9}, {"name": "wa1", "param_bytes": 1.2e9},
      {"name": "wb0", "param_bytes": 1.2e9}, {"name": "wb1", "param_bytes": 1.2e9},
      {"name": "a0", "durations": {"gpu0": 0}}, {"name": "a1", "durations": {"gpu0": 0}},
      {"name": "b0", "durations": {"gpu1": 0}}, {"name": "b1", "durations": {"gpu1": 0}}],
    "edges": [{"src": "wa0", "dst": "a0"}, {"src": "wa1", "dst": "a1"}, {"src": "a0", "dst": "a1"},
              {"src": "wb0", "dst": "b0"}, {"src": "wb1", "dst": "b1"}, {"src": "b0", "dst": "b1"}]})";
  const std::vector<std::pair<std::string, std::string>> where = {{"a0", "gpu0"}, {"a1", "gpu0"}, {"b0", "gpu1"}, {"b1", "gpu1"}};
  const Problem shared = problem(g, preset("sortinghat-v100"));
  const Problem alone = problem(g, with("sortinghat-v100", "network: uncontended"));
  const Path route = path(*alone.topo, "host", "gpu0");
  const double L = route.latency;
  // The rate alone: the narrowest of the route, gpu0's copy engine and the host memory.
  const hw::Device& host = alone.topo->devices[alone.topo->index("host")];
  const hw::Device& gpu0 = alone.topo->devices[alone.topo->index("gpu0")];
  double B = route.bw;
  if (gpu0.copy_engine_bw > 0) B = std::min(B, gpu0.copy_engine_bw);
  if (host.memory_bw > 0) B = std::min(B, host.memory_bw);
  ASSERT_DOUBLE_EQ(B, route.bw);  // the bus is the narrowest: the same B as with links

  const double on_links = run(shared, plan_for(shared, where)).makespan();
  const Outcome r = run(alone, plan_for(alone, where));
  EXPECT_NEAR(on_links, 2 * L + 4 * S / B, tol(on_links));
  EXPECT_NEAR(r.makespan(), 2 * (L + S / B), tol(r.makespan()));
  EXPECT_NEAR(r.end("wb0@gpu1"), L + S / B, tol(r.makespan()));
  EXPECT_EQ(r.end("wa0@gpu0"), r.end("wb0@gpu1"));  // nothing orders the two GPUs' copies
}

// A direct host access reading R bytes holds its kernel to the route's rate alone: a kernel of
// 0 s ends at L + R/B, whichever other reads cross the bus.
TEST(PaperSwitches, UncontendedDirectHostAccessReadsAtTheRouteRate) {
  const char* g = R"({"nodes": [{"name": "w", "param_bytes": 1.2e9}, {"name": "v", "param_bytes": 1.2e9},
      {"name": "a", "durations": {"gpu0": 0}}, {"name": "b", "durations": {"gpu1": 0}}],
    "edges": [{"src": "w", "dst": "a"}, {"src": "v", "dst": "b"}]})";
  const Problem p = problem(g, with("sortinghat-v100", "network: uncontended"));
  scheduler::BuildOptions dha;
  using Via = scheduler::ParamDelivery::Via;
  dha.params[{p.graph->find("w"), p.topo->index("gpu0")}].via = Via::Dha;
  dha.params[{p.graph->find("v"), p.topo->index("gpu1")}].via = Via::Dha;
  const Outcome r = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu1"}}, dha));
  const Path route = path(*p.topo, "host", "gpu0");
  const hw::Device& host = p.topo->devices[p.topo->index("host")];
  const double B = host.memory_bw > 0 ? std::min(route.bw, host.memory_bw) : route.bw;
  EXPECT_NEAR(r.end("a"), route.latency + S / B, tol(S / B));
  EXPECT_EQ(r.end("a"), r.end("b"));
}

// A parameter twice a GPU's memory: limited, the run goes over memory; unlimited, it fits and
// its peak is the parameter's bytes.
TEST(PaperSwitches, UnlimitedMemoryHoldsWhatDoesNotFit) {
  const hw::Topology limited = preset("pcie-4gpu-2bus");
  const double M = limited.devices[limited.index("gpu0")].memory;
  ASSERT_GT(M, 0);
  const std::string g = R"({"nodes": [{"name": "w", "param_bytes": )" + std::to_string(2 * M) +
                        R"(}, {"name": "a", "durations": {"gpu0": 0}}], "edges": [{"src": "w", "dst": "a"}]})";
  const Problem over = problem(g, limited);
  const Problem free = problem(g, with("pcie-4gpu-2bus", "memory: unlimited"));
  EXPECT_TRUE(std::isinf(free.topo->devices[free.topo->index("gpu0")].memory));
  const Outcome o = run(over, plan_for(over, {{"a", "gpu0"}}));
  EXPECT_EQ(scheduler::check_memory(over, o.low, o.trace).over_device, "gpu0");
  const Outcome r = run(free, plan_for(free, {{"a", "gpu0"}}));
  const scheduler::MemoryCheck c = scheduler::check_memory(free, r.low, r.trace);
  EXPECT_EQ(c.over_device, "");
  bool seen = false;
  for (auto& [dev, peak] : c.peak)
    if (dev == "gpu0") {
      EXPECT_DOUBLE_EQ(peak, 2 * M);
      seen = true;
    }
  EXPECT_TRUE(seen);
  // Links and routes are untouched: the copy takes what it takes with memory limited.
  EXPECT_EQ(free.topo->links.size(), limited.links.size());
}

}  // namespace
