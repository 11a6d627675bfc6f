// Transfers on the SortingHat V100 station (the paper's section 2.2 and Figs. 2-4):
// shared PCIe buses, parallel transmission, NVLink pairs, direct host access, pageable copies,
// and a far NUMA node. The paper's GPU1..GPU4 are gpu0..gpu3. Every expectation is derived in
// the test from the loaded topology's own figures.
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using Via = scheduler::ParamDelivery::Via;

constexpr double S = 1.2e9;  // bytes of each parameter

// Two models of two layers each; every layer reads one parameter of S bytes and takes no time.
const char* kTwoModels = R"({"nodes": [
    {"name": "wa0", "param_bytes": 1.2e9}, {"name": "wa1", "param_bytes": 1.2e9},
    {"name": "wb0", "param_bytes": 1.2e9}, {"name": "wb1", "param_bytes": 1.2e9},
    {"name": "a0", "durations": {"gpu0": 0}}, {"name": "a1", "durations": {"gpu0": 0}},
    {"name": "b0", "durations": {"gpu1": 0, "gpu2": 0}}, {"name": "b1", "durations": {"gpu1": 0, "gpu2": 0}}],
  "edges": [{"src": "wa0", "dst": "a0"}, {"src": "wa1", "dst": "a1"}, {"src": "a0", "dst": "a1"},
            {"src": "wb0", "dst": "b0"}, {"src": "wb1", "dst": "b1"}, {"src": "b0", "dst": "b1"}]})";

// Fig. 2(a) vs (b): model A on GPU1 (gpu0), model B on GPU2 (gpu1, the same bus) or GPU3 (gpu2,
// the other bus). Each GPU copies its two parameters one after the other on its H2D queue.
//   other bus: each copy alone on its route:           2 (L + S/B)
//   same bus:  the two GPUs' copies share the uplink:  2 (L + S/(B/2)) = 2L + 4S/B
// so the copying takes twice as long (latencies aside).
TEST(Transfers, SortingHatTwoModelsOnOneBusCopyTwiceAsLong) {
  const Problem p = problem(kTwoModels, preset("sortinghat-v100"));
  const Path host_gpu0 = path(*p.topo, "host", "gpu0");
  ASSERT_DOUBLE_EQ(path(*p.topo, "host", "gpu2").bw, host_gpu0.bw);
  const double B = host_gpu0.bw, L = host_gpu0.latency;
  const double other = run(p, plan_for(p, {{"a0", "gpu0"}, {"a1", "gpu0"}, {"b0", "gpu2"}, {"b1", "gpu2"}})).makespan();
  const double same = run(p, plan_for(p, {{"a0", "gpu0"}, {"a1", "gpu0"}, {"b0", "gpu1"}, {"b1", "gpu1"}})).makespan();
  EXPECT_NEAR(other, 2 * L + 2 * S / B, tol(other));
  EXPECT_NEAR(same, 2 * L + 4 * S / B, tol(same));
  EXPECT_NEAR(same - 2 * L, 2 * (other - 2 * L), tol(same));
}

const char* kOneParam = R"({"nodes": [{"name": "w", "param_bytes": 1.2e9}, {"name": "a", "durations": {"gpu0": 0}}],
                            "edges": [{"src": "w", "dst": "a"}]})";

// Parallel transmission to GPU1 (gpu0) through GPU4 (gpu3: the other bus, two NVLinks):
//   direct half over host -> bus0 -> gpu0:            L + (S/2)/B
//   staged half over host -> bus1 -> gpu3, at once:   L + (S/2)/B   (no shared link)
//   then forwarded gpu3 -> gpu0 over NVLink (N):      + L_nv + (S/2)/N
// makespan L + L_nv + S/(2B) + S/(2N), against L + S/B over gpu0's own bus alone: the
// bandwidth terms are in the ratio (1/(2B) + 1/(2N)) / (1/B) = (1 + B/N) / 2.
TEST(Transfers, ParallelTransmissionBeatsTheOwnBusByTheBandwidthRatio) {
  const Problem p = problem(kOneParam, preset("sortinghat-v100"));
  const Path own = path(*p.topo, "host", "gpu0"), stage = path(*p.topo, "host", "gpu3");
  const Path nv = path(*p.topo, "gpu3", "gpu0");
  const double B = own.bw, N = nv.bw, L = own.latency;
  ASSERT_DOUBLE_EQ(stage.bw, B);
  ASSERT_EQ(p.topo->route(p.topo->index("gpu3"), p.topo->index("gpu0"))->hops.size(), 1u);  // the NVLink pair

  const double alone = run(p, plan_for(p, {{"a", "gpu0"}})).makespan();
  scheduler::BuildOptions pt;
  pt.params[{p.graph->find("w"), p.topo->index("gpu0")}] = {Via::Parallel, p.topo->index("gpu3"), 0.5, -1, {}};
  const Plan plan = plan_for(p, {{"a", "gpu0"}}, pt);
  const Outcome r = run(p, plan);

  EXPECT_NEAR(alone, L + S / B, tol(alone));
  EXPECT_NEAR(r.end("w@gpu0"), L + S / (2 * B), tol(alone));
  EXPECT_NEAR(r.end("w@gpu0/stage"), stage.latency + S / (2 * B), tol(alone));
  EXPECT_NEAR(r.makespan(), stage.latency + S / (2 * B) + nv.latency + S / (2 * N), tol(alone));
  EXPECT_NEAR((r.makespan() - L - nv.latency) / (alone - L), (1 + B / N) / 2, 1e-9);
  EXPECT_LT(r.makespan(), alone);
  // The op waits for both parts: it ends with the later one, the forward.
  EXPECT_DOUBLE_EQ(r.end("a"), r.end("w@gpu0/forward"));
}

// Takes task `name` out of whichever queue holds it.
void drop_task(Plan& plan, const Problem& p, const std::string& name) {
  for (auto& q : plan.queues)
    std::erase_if(q.items, [&](const PlanItem& it) { return scheduler::item_name(it, *p.graph, *p.topo) == name; });
  std::erase_if(plan.queues, [](const scheduler::PlanQueue& q) { return q.items.empty(); });
}

// SortingHat's PT (section 2.2): w is copied to GPU4 (gpu3) over its own bus, and GPU1 (gpu0)
// takes it whole from there over their NVLinks (N), no stage: one copy of S bytes from host
// memory serves both GPUs.
//   w@gpu3 (no op on gpu3 reads it, it still moves all S bytes):  L + S/B
//   w@gpu0/forward, after it:                                       + L_nv + S/N
//   w@gpu0, the own-route share (none):                             no time
// Against a stage of its own for gpu0 (L + S/B on the same bus, beside w@gpu3's copy: the two
// share the bus, 2S/B), the forward from the kept copy saves the second crossing.
TEST(Transfers, ParallelTransmissionFromTheNeighboursCopyCrossesTheBusOnce) {
  const Problem p = problem(kOneParam, preset("sortinghat-v100"));
  const Path stage = path(*p.topo, "host", "gpu3"), nv = path(*p.topo, "gpu3", "gpu0");
  const double B = stage.bw, N = nv.bw, L = stage.latency;
  scheduler::BuildOptions pt;
  pt.params[{p.graph->find("w"), p.topo->index("gpu0")}] = {Via::Parallel, p.topo->index("gpu3"), 1.0, -1, {}};
  Plan plan = plan_for(p, {{"a", "gpu0"}}, pt);
  drop_task(plan, p, "w@gpu0/stage");
  plan.queues.push_back({"gpu3.h2d", {{PlanItem::Kind::Deliver, p.graph->find("w"), p.topo->index("gpu3")}}});
  const Outcome r = run(p, plan);
  EXPECT_DOUBLE_EQ(r.task("w@gpu3").bytes, S);
  EXPECT_NEAR(r.end("w@gpu3"), L + S / B, tol(r.makespan()));
  EXPECT_DOUBLE_EQ(r.task("w@gpu0").bytes, 0);
  EXPECT_EQ(r.end("w@gpu0"), 0);
  EXPECT_NEAR(r.end("w@gpu0/forward"), L + S / B + nv.latency + S / N, tol(r.makespan()));
  EXPECT_DOUBLE_EQ(r.end("a"), r.end("w@gpu0/forward"));
  double host_bytes = 0;  // what crossed out of host memory: one copy
  for (const auto& t : r.low.graph.traffic)
    if (t.src == p.topo->index("host")) host_bytes += t.bytes;
  EXPECT_DOUBLE_EQ(host_bytes, S);

  // The neighbour's copy must be there to forward from: not evicted, and not missing.
  Plan evicted = plan;
  evicted.params[{p.graph->find("w"), p.topo->index("gpu3")}] = {.evict = true};
  EXPECT_THROW(run(p, evicted), InputError);
  Plan missing = plan;
  drop_task(missing, p, "w@gpu3");
  try {
    run(p, missing);
    ADD_FAILURE() << "a forward from nothing lowered";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("neither stages it ('w@gpu0/stage') nor keeps a copy of it on 'gpu3'"),
              std::string::npos)
        << e.what();
  }
}

// A tied weight (dha_readers): w (S bytes) read by k1 by direct host access, then copied to the
// same GPU for k2, in one ready queue k1, w@gpu0, k2. k1 (d = S/(2B)) is bus bound: L + S/B;
// then the copy: L + S/B; then k2 (no time) reads the copy. Without dha_readers k1 would wait
// for the copy; with via: dha, k2 would read S bytes over the bus again.
TEST(Transfers, DhaReadersReadFromHostMemoryAndTheRestReadTheCopy) {
  const char* g = R"({"nodes": [{"name": "w", "param_bytes": 1.2e9},
                                {"name": "k1", "durations": {"gpu0": 0.05}}, {"name": "k2", "durations": {"gpu0": 0}}],
                      "edges": [{"src": "w", "dst": "k1"}, {"src": "w", "dst": "k2"}, {"src": "k1", "dst": "k2"}]})";
  const Problem p = problem(g, preset("sortinghat-v100"));
  const Path r0 = path(*p.topo, "host", "gpu0");
  const double B = r0.bw, L = r0.latency;
  ASSERT_DOUBLE_EQ(0.05, S / (2 * B));
  const int w = p.graph->find("w"), k1 = p.graph->find("k1"), k2 = p.graph->find("k2"), gpu0 = p.topo->index("gpu0");
  scheduler::BuildOptions o;
  o.params[{w, gpu0}] = {.dha_readers = {k1}};
  o.ready[gpu0] = {{PlanItem::Kind::Compute, k1, -1}, {PlanItem::Kind::Deliver, w, gpu0}, {PlanItem::Kind::Compute, k2, -1}};
  const Plan plan = plan_for(p, {{"k1", "gpu0"}, {"k2", "gpu0"}}, o);
  const Outcome r = run(p, plan);
  EXPECT_EQ(r.task("k1").kind, engine::TaskKind::Dha);
  EXPECT_DOUBLE_EQ(r.task("k1").bytes, S);
  EXPECT_EQ(r.task("k2").kind, engine::TaskKind::Compute);
  EXPECT_NEAR(r.end("k1"), L + S / B, tol(r.makespan()));
  EXPECT_NEAR(r.end("w@gpu0"), 2 * (L + S / B), tol(r.makespan()));
  EXPECT_NEAR(r.makespan(), 2 * (L + S / B), tol(r.makespan()));

  // The plan file says the same, and reads back equal.
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  EXPECT_NE(text.find("\"dha_readers\": [\n        \"k1\"\n      ]"), std::string::npos) << text;
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo), plan);
}

// Fig. 2(c) / Fig. 4: an activation of S bytes from GPU1 (gpu0) to GPU4 (gpu3, two NVLinks)
// or to GPU2 (gpu1, one NVLink): L_nv + S/(2 N1) against L_nv + S/N1, twice as fast.
TEST(Transfers, ActivationsOverTwoNvlinksMoveTwiceAsFast) {
  const char* g = R"({"nodes": [{"name": "a", "durations": {"gpu0": 0}},
                                {"name": "b", "durations": {"gpu1": 0, "gpu3": 0}}],
                      "edges": [{"src": "a", "dst": "b", "bytes": 1.2e9}]})";
  const Problem p = problem(g, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  const Path one = path(*p.topo, "gpu0", "gpu1"), two = path(*p.topo, "gpu0", "gpu3");
  EXPECT_DOUBLE_EQ(two.bw, 2 * one.bw);  // the preset's count: 2 link
  const double t1 = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu1"}})).makespan();
  const double t2 = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu3"}})).makespan();
  EXPECT_NEAR(t1, one.latency + S / one.bw, tol(t1));
  EXPECT_NEAR(t2, two.latency + S / two.bw, tol(t2));
  EXPECT_NEAR(t1 - one.latency, 2 * (t2 - two.latency), tol(t1));
}

// A kernel on gpu0 of duration d = S/(2B) reading w (S bytes) by direct host access, next to a
// copy of v (S bytes) to gpu1 (same bus) or gpu2 (other bus), both starting at 0:
//   other bus: nothing shared. The DHA task runs at min(1/d, B/S) = B/S: ends at L + S/B (bus
//              bound; its GPU half busy); the copy ends at L + S/B.
//   same bus:  both cross host -> bus0, each shared by its byte rate, so each gets B/2 of the
//              uplink: both end at L + 2S/B (docs/execution.md's worked example 3, scaled).
TEST(Transfers, DirectHostAccessContendsOnlyWithCopiesOnItsBus) {
  const char* g = R"({"nodes": [{"name": "w", "param_bytes": 1.2e9}, {"name": "v", "param_bytes": 1.2e9},
                                {"name": "k", "durations": {"gpu0": 0.05}},
                                {"name": "c", "durations": {"gpu1": 0, "gpu2": 0}}],
                      "edges": [{"src": "w", "dst": "k"}, {"src": "v", "dst": "c"}]})";
  const Problem p = problem(g, preset("sortinghat-v100"));
  const Path r0 = path(*p.topo, "host", "gpu0");
  const double B = r0.bw, L = r0.latency;
  ASSERT_DOUBLE_EQ(0.05, S / (2 * B));  // d = S/(2B) with the preset's 12 GB/s
  scheduler::BuildOptions dha;
  dha.params[{p.graph->find("w"), p.topo->index("gpu0")}] = {Via::Dha, -1, 0, -1, {}};

  const Outcome other = run(p, plan_for(p, {{"k", "gpu0"}, {"c", "gpu2"}}, dha));
  EXPECT_EQ(other.task("k").kind, engine::TaskKind::Dha);
  EXPECT_DOUBLE_EQ(other.task("k").bytes, S);
  EXPECT_EQ(other.low.graph.find_task("w@gpu0"), -1);  // not copied
  EXPECT_NEAR(other.end("k"), L + S / B, tol(other.end("k")));
  EXPECT_NEAR(other.end("v@gpu2"), L + S / B, tol(other.end("k")));

  const Outcome same = run(p, plan_for(p, {{"k", "gpu0"}, {"c", "gpu1"}}, dha));
  EXPECT_NEAR(same.end("k"), L + 2 * S / B, tol(same.end("k")));
  EXPECT_NEAR(same.end("v@gpu1"), L + 2 * S / B, tol(same.end("k")));
}

// A pageable copy runs at the host memory's pageable_bw P (here B/3) however fast the route is:
// L + S/P against L + S/B pinned, slower by B/P. A parameter may opt back into pinned memory.
TEST(Transfers, PageableCopiesAreSlowerByTheBandwidthRatio) {
  hw::Topology t = preset("sortinghat-v100");
  const double B = path(t, "host", "gpu0").bw, L = path(t, "host", "gpu0").latency, P = B / 3;
  device(t, "host").pageable_bw = P;
  const Problem p = problem(kOneParam, t);
  const double pinned = run(p, plan_for(p, {{"a", "gpu0"}})).makespan();
  scheduler::BuildOptions pageable;
  pageable.buffer = scheduler::HostBuffer::Pageable;
  const double slow = run(p, plan_for(p, {{"a", "gpu0"}}, pageable)).makespan();
  EXPECT_NEAR(pinned, L + S / B, tol(pinned));
  EXPECT_NEAR(slow, L + S / P, tol(slow));
  EXPECT_NEAR((slow - L) / (pinned - L), B / P, 1e-9);
  pageable.params[{p.graph->find("w"), p.topo->index("gpu0")}].buffer = scheduler::HostBuffer::Pinned;
  EXPECT_NEAR(run(p, plan_for(p, {{"a", "gpu0"}}, pageable)).makespan(), pinned, tol(pinned));
}

// Two NUMA nodes: gpu0 hangs off host0's PCIe root; host1 reaches it over the socket link
// (slower than PCIe here). A parameter the plan keeps in host1 crosses that link:
// L(host1 -> gpu0) + S / bw(socket), against L + S/B from the nearest memory, host0.
TEST(Transfers, FarNumaNodeCopiesFollowTheirRoute) {
  const hw::Topology t = hw::load_topology_text(R"(
name: two-numa
devices:
  - {id: host0, type: host_memory, memory: 64GiB}
  - {id: host1, type: host_memory, memory: 64GiB}
  - {id: bus0, type: switch}
  - {id: gpu0, type: gpu, memory: 32GiB, memory_bw: 900GB/s, fp32: 15TFLOPS}
links:
  - {a: host0, b: bus0, bw: 12GB/s, latency: 0.5us, kind: pcie}
  - {a: bus0, b: gpu0, bw: 12GB/s, latency: 0.5us, kind: pcie}
  - {a: host1, b: host0, bw: 8GB/s, latency: 0.2us, kind: socket}
)", "two-numa.yaml");
  const Problem p = problem(kOneParam, t);
  const Path near = path(t, "host0", "gpu0"), far = path(t, "host1", "gpu0");
  EXPECT_EQ(t.host_memory_for(t.index("gpu0")), t.index("host0"));
  const double t_near = run(p, plan_for(p, {{"a", "gpu0"}})).makespan();
  scheduler::BuildOptions from_far;
  from_far.params[{p.graph->find("w"), t.index("gpu0")}].source = t.index("host1");
  const double t_far = run(p, plan_for(p, {{"a", "gpu0"}}, from_far)).makespan();
  EXPECT_NEAR(t_near, near.latency + S / near.bw, tol(t_near));
  EXPECT_NEAR(t_far, far.latency + S / far.bw, tol(t_far));
  EXPECT_DOUBLE_EQ(far.bw, 8e9);  // the socket link is the bottleneck
}

}  // namespace
