// Collectives placed in plans (scheduler/plan/json.hpp, `collectives`): lowered between ops over
// the topology's routes, at flow, link or analytic fidelity; and bad entries as located errors.
// Every expectation is derived here from the loaded preset's own figures.
#include "scheduler/plan/json.hpp"
#include "scheduler/plan/rules.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

constexpr double S = 1.2e9;  // bytes all-reduced

// One op per GPU before the collective (a*) and one after it (b*), 1 ms each.
const char* kAround = R"({"nodes": [
    {"name": "a0", "durations": {"gpu0": 1e-3}}, {"name": "a1", "durations": {"gpu1": 1e-3}},
    {"name": "a2", "durations": {"gpu2": 1e-3}}, {"name": "a3", "durations": {"gpu3": 1e-3}},
    {"name": "b0", "durations": {"gpu0": 1e-3}}, {"name": "b1", "durations": {"gpu1": 1e-3}},
    {"name": "b2", "durations": {"gpu2": 1e-3}}, {"name": "b3", "durations": {"gpu3": 1e-3}}],
  "edges": []})";

// The plan: a_i then b_i on gpu i's stream, and a ring all-reduce between them; the ring order
// gpu0 -> gpu1 -> gpu3 -> gpu2 -> gpu0 crosses one single NVLink per hop on the SortingHat V100.
std::string around_plan(const std::string& extra = "") {
  return R"({"devices": {"a0": "gpu0", "a1": "gpu1", "a2": "gpu2", "a3": "gpu3",
                          "b0": "gpu0", "b1": "gpu1", "b2": "gpu2", "b3": "gpu3"},
  "collectives": [{"name": "ar", "op": "all-reduce", "algorithm": "ring", "group": ["gpu0", "gpu1", "gpu3", "gpu2"],
                   "bytes": 1.2e9, "after": ["a0", "a1", "a2", "a3"], "before": ["b0", "b1", "b2", "b3"])" +
         extra + R"(}],
  "queues": [{"name": "gpu0.compute", "tasks": ["a0", "b0"]}, {"name": "gpu1.compute", "tasks": ["a1", "b1"]},
             {"name": "gpu2.compute", "tasks": ["a2", "b2"]}, {"name": "gpu3.compute", "tasks": ["a3", "b3"]}]})";
}

// A group of one moves nothing and takes no time, but still orders: b0 waits for a1, placed off
// the group, through it (1 ms + 1 ms), at both fidelities.
TEST(PlanCollectives, OneMemberGroupOnlyOrders) {
  const Problem p = problem(kAround, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  std::string text = around_plan();
  const size_t from = text.find("\"collectives\"");
  const size_t to = text.find("\"queues\"");
  text.replace(from, to - from, R"("collectives": [{"name": "one", "op": "all-reduce", "group": ["gpu0"], "bytes": 1e9,
                                  "after": ["a1"], "before": ["b0"]}],
  )");
  for (engine::Fidelity f : {engine::Fidelity::Flow, engine::Fidelity::Analytic}) {
    const Outcome r = run_text(p, text, f);
    EXPECT_NEAR(r.end("b0"), 2e-3, tol(2e-3));
    EXPECT_NEAR(r.end("b1"), 2e-3, tol(2e-3));
  }
}

// Ring all-reduce of S bytes on n = 4 GPUs: 2(n-1) steps, each moving S/n over one hop of
// latency L and bandwidth B after the previous step's data arrived, so
//   T = 2(n-1) (L + S/(nB)) = 6 (0.5 us + 1.2e9 / (4 * 22.5e9) s) = 6 (0.5 us + 13.33 ms) ~ 80.0 ms
// and the plan ends at 1 ms (a_i) + T + 1 ms (b_i). Analytic fidelity waits the same closed form.
TEST(PlanCollectives, RingAllReduceBetweenOpsMatchesTheClosedForm) {
  const Problem p = problem(kAround, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  const std::vector<std::string> ring = {"gpu0", "gpu1", "gpu3", "gpu2"};
  const Path hop = path(*p.topo, "gpu0", "gpu1");
  for (size_t i = 0; i < ring.size(); ++i) {  // every hop has the same figures
    const Path h = path(*p.topo, ring[i], ring[(i + 1) % ring.size()]);
    ASSERT_DOUBLE_EQ(h.bw, hop.bw);
    ASSERT_DOUBLE_EQ(h.latency, hop.latency);
  }
  const double n = 4, B = hop.bw, L = hop.latency;
  const double T = 2 * (n - 1) * (L + S / (n * B));
  const Outcome flow = run_text(p, around_plan(), engine::Fidelity::Flow);
  const Outcome analytic = run_text(p, around_plan(), engine::Fidelity::Analytic);
  EXPECT_NEAR(flow.makespan(), 2e-3 + T, tol(flow.makespan()));
  EXPECT_NEAR(analytic.makespan(), flow.makespan(), 1e-6 * flow.makespan());
  for (const char* b : {"b0", "b1", "b2", "b3"}) EXPECT_NEAR(flow.end(b), 2e-3 + T, tol(T));
  // 2(n-1) steps of one transfer per rank, plus the per-rank joins; the analytic form is one task per rank.
  EXPECT_GT(flow.low.graph.tasks.size(), analytic.low.graph.tasks.size());
}

// With chunks = k the analytic form pays the latency k times per step: 2(n-1)(kL + S/(nB)).
TEST(PlanCollectives, ChunksPipelineTheRing) {
  const Problem p = problem(kAround, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  const Path hop = path(*p.topo, "gpu0", "gpu1");
  const double n = 4, k = 4, B = hop.bw, L = hop.latency;
  const Outcome analytic = run_text(p, around_plan(", \"chunks\": 4"), engine::Fidelity::Analytic);
  EXPECT_NEAR(analytic.makespan(), 2e-3 + 2 * (n - 1) * (k * L + S / (n * B)), tol(analytic.makespan()));
  const Outcome flow = run_text(p, around_plan(", \"chunks\": 4"), engine::Fidelity::Flow);
  EXPECT_LE(flow.makespan(), analytic.makespan() * (1 + 1e-9));
}

// Contention: a ring all-reduce of S between gpu0 and gpu1 on pcie-4gpu-2bus (route
// gpu0 -> bus0 -> gpu1, bandwidth B, latency L) while gpu1's parameter copy of P = 4S crosses
// host -> bus0 -> gpu1, sharing the link bus0 -> gpu1 with the ring's gpu0 -> gpu1 sends.
// Alone (analytic, and flow without the copy): 2 steps of S/2 each way, T = 2L + S/B.
// With the copy (flow): both start at L and the gpu0 -> gpu1 step-0 send gets B/2 (ends L + S/B);
// gpu1 -> gpu0 ends at L + S/(2B). gpu0's step-1 send follows its step-0 send on the same
// connection: starts L + S/B, waits L, moves S/2 at B/2, ends 2L + 2S/B. The copy is still
// running then (it has moved S/2 + BL + S/2 < P). So the flow collective takes S/B longer than
// the analytic form, which does not see the copy: 2L + 2S/B against 2L + S/B.
const char* kRingBesideACopy = R"({"nodes": [
    {"name": "w", "param_bytes": 4.8e9},
    {"name": "a0", "durations": {"gpu0": 0}}, {"name": "a1", "durations": {"gpu1": 0}},
    {"name": "b0", "durations": {"gpu0": 0}}, {"name": "b1", "durations": {"gpu1": 0}}],
  "edges": [{"src": "w", "dst": "b1"}]})";
const char* kRingBesideACopyPlan = R"({"devices": {"a0": "gpu0", "a1": "gpu1", "b0": "gpu0", "b1": "gpu1"},
  "collectives": [{"name": "ar", "op": "all-reduce", "group": ["gpu0", "gpu1"], "bytes": 1.2e9,
                   "after": ["a0", "a1"], "before": ["b0", "b1"]}],
  "queues": [{"name": "gpu0.compute", "tasks": ["a0", "b0"]}, {"name": "gpu1.compute", "tasks": ["a1", "b1"]},
             {"name": "gpu1.h2d", "tasks": ["w@gpu1"]}]})";

TEST(PlanCollectives, FlowSeesAParameterCopyOnTheRingsLinkAnalyticDoesNot) {
  const Problem p = problem(kRingBesideACopy, preset("pcie-4gpu-2bus"));
  const Path r = path(*p.topo, "gpu0", "gpu1");
  ASSERT_EQ(p.topo->route(p.topo->index("gpu0"), p.topo->index("gpu1"))->hops.size(), 2u);  // via bus0
  ASSERT_DOUBLE_EQ(path(*p.topo, "host", "gpu1").latency, r.latency);  // copy and ring start together
  const double B = r.bw, L = r.latency;
  const std::string done = "ar.done." + std::to_string(p.topo->index("gpu0"));
  const Outcome flow = run_text(p, kRingBesideACopyPlan, engine::Fidelity::Flow);
  const Outcome analytic = run_text(p, kRingBesideACopyPlan, engine::Fidelity::Analytic);
  EXPECT_NEAR(flow.end(done), 2 * L + 2 * S / B, tol(flow.end(done)));
  EXPECT_NEAR(analytic.end("ar.analytic." + std::to_string(p.topo->index("gpu0"))), 2 * L + S / B, tol(S / B));
  EXPECT_NEAR(flow.end(done) - (2 * L + S / B), S / B, tol(S / B));  // 0.1 s slower
  // At link fidelity bus0 -> gpu1 carries the ring's S (after its chain of two latencies) beside
  // the copy, at B/2 while both run: the collective ends where its flows do.
  const Outcome link = run_text(p, kRingBesideACopyPlan, engine::Fidelity::Link);
  EXPECT_NEAR(link.end("ar.done"), 2 * L + 2 * S / B, tol(link.end("ar.done")));
}

// How many tasks a collective of 1024 ranks may lower into, per fidelity, for the cap on one
// simulation: flows 2 n (n - 1) transfers; link 8 per rank; analytic one per rank. 192 of them
// (a 96-layer decode step's all-reduces) pass the cap at link fidelity, not at flow.
TEST(PlanCollectives, TheTaskCapCountsAtTheFidelitySimulated) {
  scheduler::PlanCollective c;
  c.group.resize(1024);
  EXPECT_DOUBLE_EQ(scheduler::collective_tasks(c, engine::Fidelity::Flow), 2.0 * 1024 * 1023);
  EXPECT_DOUBLE_EQ(scheduler::collective_tasks(c, engine::Fidelity::Link), 8.0 * 1024);
  EXPECT_DOUBLE_EQ(scheduler::collective_tasks(c, engine::Fidelity::Analytic), 1024.0);
  scheduler::Plan plan;
  plan.collectives.assign(192, c);
  EXPECT_NE(scheduler::check_lowered_size(plan, engine::Fidelity::Flow), "");
  EXPECT_EQ(scheduler::check_lowered_size(plan, engine::Fidelity::Link), "");
}

// The same with `network: uncontended` (docs/execution.md, "Papers' assumptions"), at the flow
// fidelity asked for: the ring takes its closed form, 2L + S/B, and the copy of P bytes ends at
// L_h + P/B_h, each alone (B_h: the narrowest of the route, gpu1's copy engine, host memory).
TEST(PlanCollectives, UncontendedRingTakesItsClosedFormBesideACopy) {
  const Problem p = problem(kRingBesideACopy, hw::load_topology(Yaml(YAML::Load("{include: pcie-4gpu-2bus, network: uncontended}"), "test")));
  const Path ring = path(*p.topo, "gpu0", "gpu1"), copy = path(*p.topo, "host", "gpu1");
  const hw::Device& gpu1 = p.topo->devices[p.topo->index("gpu1")];
  const hw::Device& host = p.topo->devices[p.topo->index("host")];
  double Bh = copy.bw;
  if (gpu1.copy_engine_bw > 0) Bh = std::min(Bh, gpu1.copy_engine_bw);
  if (host.memory_bw > 0) Bh = std::min(Bh, host.memory_bw);
  const double P = 4.8e9;
  const Outcome r = run_text(p, kRingBesideACopyPlan, engine::Fidelity::Flow);
  EXPECT_NEAR(r.end("ar.analytic." + std::to_string(p.topo->index("gpu0"))), 2 * ring.latency + S / ring.bw, tol(S / ring.bw));
  EXPECT_NEAR(r.end("w@gpu1"), copy.latency + P / Bh, tol(P / Bh));
}

// A plan with collectives and core counts survives JSON both ways.
TEST(PlanCollectives, RoundTripThroughJson) {
  const Problem p = problem(kAround, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  const Plan plan = scheduler::parse_plan(Json::load_string(around_plan(", \"chunks\": 2"), "plan.json"), *p.graph, *p.topo);
  ASSERT_EQ(plan.collectives.size(), 1u);
  EXPECT_EQ(plan.collectives[0].chunks, 2);
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(text, "back.json"), *p.graph, *p.topo), plan);
}

TEST(PlanCollectives, BadEntriesAreLocatedInputErrors) {
  const Problem p = problem(kAround, preset("sortinghat-v100"), scheduler::WeightsMode::Resident);
  auto entry = [](const std::string& body) {
    return R"({"devices": {"a0": "gpu0", "a1": "gpu1", "a2": "gpu2", "a3": "gpu3",
                           "b0": "gpu0", "b1": "gpu1", "b2": "gpu2", "b3": "gpu3"},
  "collectives": [
    {"name": "ar", "op": "all-reduce", "bytes": 1e6,
)" + body + R"(}],
  "queues": []})";
  };
  struct Bad {
    const char* what;
    std::string body;
    const char* marker;
    const char* message;
  } cases[] = {
      {"no member", R"("group": [])", "\"group\"", "at least one member"},
      {"repeated member", R"("group": ["gpu0", "gpu1", "gpu0"])", "\"group\"", "'gpu0' appears more than once"},
      {"unknown device", R"("group": ["gpu0", "gpu9"])", "gpu9", "no device 'gpu9'"},
      {"not a compute device", R"("group": ["gpu0", "bus0"])", "\"group\"", "'bus0' is not a compute device"},
      {"unknown op", R"("group": ["gpu0", "gpu1"], "after": ["zz"])", "zz", "'zz' is not an op"},
      {"unsupported algorithm", R"("group": ["gpu0", "gpu1"], "algorithm": "carrier-pigeon")", "carrier-pigeon",
       "carrier-pigeon"},
      {"algorithm without the op", R"("group": ["gpu0", "gpu1"], "algorithm": "proportional")", "proportional",
       "does not implement all-reduce"},
      {"both sides of one op", R"("group": ["gpu0", "gpu1"], "after": ["a0"], "before": ["a0"])", "\"before\"",
       "both after and before"},
      {"zero chunks", R"("group": ["gpu0", "gpu1"], "chunks": 0)", "\"chunks\"", "whole number >= 1"},
      // 2 ranks x 2 steps x 10^9 chunks: 4e9 tasks, past the 1e8 a collective may lower into.
      {"a billion chunks", R"("group": ["gpu0", "gpu1"], "chunks": 1000000000)", "\"chunks\"",
       "would lower into about 4e+09 tasks"},
  };
  for (const Bad& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string text = entry(c.body);
    try {
      scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.loc().file.str(), "plan.json");
      EXPECT_EQ(e.loc().line, line_of(text, c.marker)) << e.what();
    }
  }
  // An unknown operation names the known ones.
  try {
    scheduler::parse_plan(Json::load_string(R"({"devices": {}, "collectives": [{"name": "x", "op": "all-shuffle",
      "group": ["gpu0", "gpu1"], "bytes": 1}], "queues": []})", "plan.json"), *p.graph, *p.topo);
    ADD_FAILURE() << "accepted all-shuffle";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown collective operation 'all-shuffle'"), std::string::npos) << e.what();
  }
  // Built in code, the same rules hold in lower().
  Plan built;
  built.device_of.assign(p.graph->nodes.size(), p.topo->index("gpu0"));
  built.queues.push_back({"gpu0.compute", {}});
  for (int op : p.graph->ops()) built.queues[0].items.push_back({PlanItem::Kind::Compute, op, -1});
  scheduler::PlanCollective one_member;
  one_member.name = "ar";
  one_member.group = {p.topo->index("gpu0")};
  one_member.bytes = 1e6;
  built.collectives.push_back(one_member);
  EXPECT_THROW(scheduler::lower(p, built), InputError);
}

// CPU contention on Chrion's Xeon (chrion-1080ti: 12 cores, fp32 P, dispatch o, contention
// w = [1 x5, 1.2, 1.4, ..., 2.4]). An op of F flops on k cores takes o + F / (P k/12 / w_k):
//   k = 1:  o + 12 F/P           k = 3:  o + 4 F/P
//   k = 5:  o + (12/5) F/P       k = 8:  o + (12/8) 1.6 F/P = o + 2.4 F/P
//   k = 12 (the default):        o + 2.4 F/P
// so, as Chrion found, nothing is gained beyond five cores (k / w_k = 5 for k >= 5).
TEST(PlanCpuCores, DurationFollowsTheContentionCurve) {
  const char* g = R"({"nodes": [{"name": "c", "flops": 1e9, "type": "matmul"}], "edges": []})";
  const Problem p = problem(g, preset("chrion-1080ti"), scheduler::WeightsMode::Resident);
  const hw::Device& cpu = p.topo->devices[p.topo->index("cpu0")];
  const double F = 1e9, P = cpu.fp32_flops, o = cpu.launch_s + cpu.dispatch_s;  // the dispatch, then the op
  ASSERT_GT(P, 0);
  auto on = [&](int k) {
    std::string text = R"({"devices": {"c": "cpu0"}, )";
    if (k > 0) text += R"("cpu_cores": {"cpu0": )" + std::to_string(k) + "}, ";
    text += R"("queues": [{"name": "cpu0.compute", "tasks": ["c"]}]})";
    return run(p, scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo)).makespan();
  };
  EXPECT_NEAR(on(1), o + 12 * F / P, tol(on(1)));
  EXPECT_NEAR(on(3), o + 4 * F / P, tol(on(3)));
  EXPECT_NEAR(on(5), o + 2.4 * F / P, tol(on(5)));
  EXPECT_NEAR(on(8), o + 2.4 * F / P, tol(on(8)));
  EXPECT_NEAR(on(0), o + 2.4 * F / P, tol(on(0)));
  // The op's own time leaves its dispatch (host time, before it) out.
  EXPECT_NEAR(p.duration(p.graph->find("c"), p.topo->index("cpu0"), 3), cpu.launch_s + 4 * F / P, 1e-15);
  // Core counts must name a CPU and fit it.
  for (const char* bad : {R"("cpu0": 13)", R"("cpu0": 0)", R"("gpu0": 2)", R"("cpu7": 2)"}) {
    const std::string text = std::string(R"({"devices": {"c": "cpu0"}, "cpu_cores": {)") + bad + R"(}, "queues": []})";
    EXPECT_THROW(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo), InputError) << bad;
  }
}

}  // namespace
