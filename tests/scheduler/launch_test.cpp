// Launch items, resident deliveries and evicted copies (scheduler/plan/plan.hpp): each worked by hand
// on ScheInfer's Testbed-A preset (GPU launch 44 us; PCIe 3 us + bytes / 38.46 GB/s), and each bad
// use an error.
#include <fmt/format.h>

#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using Via = scheduler::ParamDelivery::Via;
using Kind = PlanItem::Kind;
using scheduler::PlanQueue;

constexpr double kLaunch = 44e-6;  // scheinfer-a's gpu0 `launch`

// Three kernels a -> b -> c of `d` seconds each on gpu0 (explicit durations, so the cost model adds
// no launch of its own), each reading its own parameter of `mb` x 1, 2, 3 MB.
std::string chain(double d, double mb = 1) {
  return fmt::format(R"({{"nodes": [
    {{"name": "wa", "param_bytes": {1}}}, {{"name": "wb", "param_bytes": {2}}}, {{"name": "wc", "param_bytes": {3}}},
    {{"name": "a", "durations": {{"gpu0": {0}, "cpu0": {0}}}}}, {{"name": "b", "durations": {{"gpu0": {0}}}}},
    {{"name": "c", "durations": {{"gpu0": {0}}}}}],
  "edges": [{{"src": "wa", "dst": "a"}}, {{"src": "wb", "dst": "b"}}, {{"src": "wc", "dst": "c"}},
            {{"src": "a", "dst": "b", "bytes": 1e3}}, {{"src": "b", "dst": "c", "bytes": 1e3}}]}})",
                     d, 1e6 * mb, 2e6 * mb, 3e6 * mb);
}

// The chain on gpu0 with every weight resident there, and the kernels' launches on `host.launch`.
Plan launched(const Problem& p) {
  scheduler::BuildOptions o;
  for (const char* w : {"wa", "wb", "wc"}) o.params[{p.graph->find(w), p.topo->index("gpu0")}].via = Via::Resident;
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}}, o);
  PlanQueue q{"host.launch", {}};
  for (const char* op : {"a", "b", "c"}) q.items.push_back({Kind::Launch, p.graph->find(op), -1});
  plan.queues.push_back(q);
  return plan;
}

TEST(Launch, HostSlowerThanTheGpuStarvesIt) {
  // 10 us kernels after 44 us launches: each kernel waits for its launch, the launches for each
  // other: c ends at 3 * 44 + 10 us.
  const Problem p = problem(chain(10e-6), preset("scheinfer-a"));
  const Outcome r = run(p, launched(p));
  EXPECT_NEAR(r.end("a/launch"), kLaunch, tol(kLaunch));
  EXPECT_NEAR(r.end("a"), kLaunch + 10e-6, tol(1e-4));
  EXPECT_NEAR(r.end("b"), 2 * kLaunch + 10e-6, tol(1e-4));
  EXPECT_NEAR(r.makespan(), 3 * kLaunch + 10e-6, tol(1e-4));
  EXPECT_EQ(r.task("b/launch").kind, engine::TaskKind::Launch);
}

TEST(Launch, HostFasterThanTheGpuOverlapsTheLaunches) {
  // 100 us kernels: only the first launch is exposed, the others overlap the kernels before them.
  const Problem p = problem(chain(100e-6), preset("scheinfer-a"));
  EXPECT_NEAR(run(p, launched(p)).makespan(), kLaunch + 300e-6, tol(1e-3));
}

TEST(Launch, ASyncHoldsTheLaunchesAfterItUntilItsOpEnds) {
  // a/launch, a/sync, b/launch, c/launch: b's launch starts once a has ended (44 + 100 us), so b
  // runs 188..288 us and c, launched meanwhile, right after it.
  const Problem p = problem(chain(100e-6), preset("scheinfer-a"));
  Plan plan = launched(p);
  std::vector<PlanItem>& q = plan.queues.back().items;
  q.insert(q.begin() + 1, {Kind::Sync, p.graph->find("a"), -1});
  const Outcome r = run(p, plan);
  EXPECT_NEAR(r.end("a/sync"), kLaunch + 100e-6, tol(1e-3));
  EXPECT_NEAR(r.end("b"), 2 * kLaunch + 200e-6, tol(1e-3));
  EXPECT_NEAR(r.makespan(), 2 * kLaunch + 300e-6, tol(1e-3));
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(scheduler::plan_to_json(plan, *p.graph, *p.topo), "plan.json"),
                                  *p.graph, *p.topo),
            plan);
}

TEST(Launch, ALaunchedKernelLeavesItsLaunchToTheLaunchTask) {
  // Kernels priced by the roofline, which adds the GPU's launch to each: d = launch + work. Run
  // one after another without launch items: 2d. With them, the second launch overlaps the first
  // kernel's work: a ends at d, b at max(d, 2 launch) + (d - launch) = 2d - launch.
  const std::string g = R"({"nodes": [{"name": "a", "flops": 4e12}, {"name": "b", "flops": 4e12}],
                            "edges": [{"src": "a", "dst": "b", "bytes": 1e3}]})";
  const Problem p = problem(g, preset("scheinfer-a"));
  const double d = p.duration(p.graph->find("a"), p.topo->index("gpu0"), 0);
  ASSERT_GT(d, 2 * kLaunch);
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}});
  EXPECT_NEAR(run(p, plan).makespan(), 2 * d, tol(2 * d));
  plan.queues.push_back({"host.launch", {{Kind::Launch, p.graph->find("a"), -1}, {Kind::Launch, p.graph->find("b"), -1}}});
  const Outcome r = run(p, plan);
  EXPECT_NEAR(r.end("a"), d, tol(d));
  EXPECT_NEAR(r.makespan(), 2 * d - kLaunch, tol(2 * d));
}

TEST(Launch, ACopyWaitsForItsLaunch) {
  // wa copied after its launch: 44 us, then the route's latency and 1 MB at its bandwidth.
  const Problem p = problem(chain(10e-6), preset("scheinfer-a"));
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}});
  plan.queues.push_back({"host.launch", {{Kind::Launch, p.graph->find("wa"), p.topo->index("gpu0")}}});
  const Path route = path(*p.topo, "host", "gpu0");
  const Outcome r = run(p, plan);
  const double copy = kLaunch + route.latency + 1e6 / route.bw;
  EXPECT_NEAR(r.end("wa@gpu0"), copy, tol(copy));
  EXPECT_NEAR(r.end("a"), copy + 10e-6, tol(copy));
}

TEST(Delivery, ResidentParametersAreHeldFromTheStartAndNeverCopied) {
  const Problem p = problem(chain(10e-6), preset("scheinfer-a"));
  scheduler::BuildOptions o;
  for (const char* w : {"wa", "wb", "wc"}) o.params[{p.graph->find(w), p.topo->index("gpu0")}].via = Via::Resident;
  const Outcome r = run(p, plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}}, o));
  EXPECT_NEAR(r.makespan(), 30e-6, tol(30e-6));
  for (std::size_t t = 0; t < r.low.graph.tasks.size(); ++t)
    EXPECT_NE(r.low.graph.tasks[t].kind, engine::TaskKind::Transfer) << r.low.graph.name(t);
  // gpu0 holds all 6 MB of weights (the ops, known by durations, have no output bytes).
  const size_t gpu = std::find(r.low.pool_device.begin(), r.low.pool_device.end(), p.topo->index("gpu0")) -
                     r.low.pool_device.begin();
  EXPECT_NEAR(r.trace.peak_memory[gpu], 6e6, 1);
}

TEST(Delivery, AResidentParameterNoOpReadsIsHeldAllTheSame) {
  // An idle expert's 5 MB weight, read by no op: held on gpu0 beside a's 1 MB copy; a copy of it,
  // or any other delivery of it, is refused.
  const std::string g = R"({"nodes": [{"name": "w", "param_bytes": 1e6}, {"name": "idle", "param_bytes": 5e6},
                            {"name": "a", "durations": {"gpu0": 1e-3}}], "edges": [{"src": "w", "dst": "a"}]})";
  const Problem p = problem(g, preset("scheinfer-a"));
  scheduler::BuildOptions o;
  o.params[{p.graph->find("idle"), p.topo->index("gpu0")}].via = Via::Resident;
  const Outcome r = run(p, plan_for(p, {{"a", "gpu0"}}, o));
  const size_t gpu = std::find(r.low.pool_device.begin(), r.low.pool_device.end(), p.topo->index("gpu0")) -
                     r.low.pool_device.begin();
  EXPECT_NEAR(r.trace.peak_memory[gpu], 6e6, 1);
  o.params[{p.graph->find("idle"), p.topo->index("gpu0")}].via = Via::Copy;
  EXPECT_THROW(run(p, plan_for(p, {{"a", "gpu0"}}, o)), InputError);
}

TEST(Delivery, AnEvictedCopyLeavesTheGpuAfterItsLastReader) {
  // Copies one after another on gpu0.h2d (100, 200, 300 MB: 2.6, 5.2, 7.8 ms) of weights each
  // read by a 10 us kernel as soon as it arrives. Kept: all 600 MB at the end. Evicted: each is
  // gone 10 us after it arrived, long before the next arrives: 300 MB at most.
  const Problem p = problem(chain(10e-6, 100), preset("scheinfer-a"));
  const std::vector<std::pair<std::string, std::string>> where = {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}};
  auto peak = [&](bool evict) {
    scheduler::BuildOptions o;
    for (const char* w : {"wa", "wb", "wc"}) o.params[{p.graph->find(w), p.topo->index("gpu0")}].evict = evict;
    const Outcome r = run(p, plan_for(p, where, o));
    const size_t gpu = std::find(r.low.pool_device.begin(), r.low.pool_device.end(), p.topo->index("gpu0")) -
                       r.low.pool_device.begin();
    return r.trace.peak_memory[gpu];
  };
  EXPECT_NEAR(peak(false), 6e8, 1);
  EXPECT_NEAR(peak(true), 3e8, 1);
}

TEST(Launch, PlanJsonRoundTripKeepsLaunchesResidentAndEvict) {
  const Problem p = problem(chain(10e-6), preset("scheinfer-a"));
  scheduler::BuildOptions o;
  o.params[{p.graph->find("wa"), p.topo->index("gpu0")}].via = Via::Resident;
  o.params[{p.graph->find("wb"), p.topo->index("gpu0")}].evict = true;
  Plan plan = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}}, o);
  plan.queues.push_back({"host.launch", {{Kind::Launch, p.graph->find("wb"), p.topo->index("gpu0")},
                                         {Kind::Launch, p.graph->find("a"), -1}}});
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  for (const char* key : {"\"via\": \"resident\"", "\"evict\": true", "\"wb@gpu0/launch\"", "\"a/launch\""})
    EXPECT_NE(text.find(key), std::string::npos) << key << " in\n" << text;
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo), plan);
}

TEST(Launch, EachBadLaunchOrDeliveryIsAnError) {
  const Problem p = problem(chain(10e-6), preset("scheinfer-a"));
  const int gpu0 = p.topo->index("gpu0"), a = p.graph->find("a"), wa = p.graph->find("wa");
  auto refused = [&](Plan plan, const char* message) {
    try {
      run(p, plan);
      ADD_FAILURE() << "accepted: " << message;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  const Plan base = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}});
  Plan on_gpu = base;
  for (auto& q : on_gpu.queues)
    if (q.name == "gpu0.compute") q.items.insert(q.items.begin(), {Kind::Launch, a, -1});
  refused(on_gpu, "goes on a host queue");
  Plan twice = base;
  twice.queues.push_back({"host.launch", {{Kind::Launch, a, -1}, {Kind::Launch, a, -1}}});
  refused(twice, "launches 'a/launch' twice");
  Plan on_cpu = plan_for(p, {{"a", "cpu0"}, {"b", "gpu0"}, {"c", "gpu0"}});
  on_cpu.queues.push_back({"host.launch", {{Kind::Launch, a, -1}}});
  refused(on_cpu, "only a GPU kernel is launched");
  Plan never = base;
  never.queues.push_back({"host.launch", {{Kind::Launch, p.graph->find("a"), gpu0}}});
  refused(never, "never delivers it");
  scheduler::BuildOptions o;
  o.params[{wa, gpu0}].via = Via::Resident;
  Plan resident = plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}}, o);
  Plan copied = resident;
  copied.queues.push_back({"gpu0.h2d", {{Kind::Deliver, wa, gpu0}}});
  refused(copied, "is resident on 'gpu0'");
  resident.queues.push_back({"host.launch", {{Kind::Launch, wa, gpu0}}});
  refused(resident, "no copy to launch");
  o.params[{wa, gpu0}] = {Via::Dha, -1, 0, -1, {}, true};
  refused(plan_for(p, {{"a", "gpu0"}, {"b", "gpu0"}, {"c", "gpu0"}}, o), "evict is for copies");
}

}  // namespace
