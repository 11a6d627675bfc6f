// The runtime's dispatch threads (docs/execution.md, "The runtime"), worked by hand: op a (100 us
// on gpu0) and op b (50 us on cpu0), independent, weights resident; dispatching an op onto gpu0
// takes 20 us of host time, onto cpu0 30 us.
#include <fmt/format.h>

#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;

constexpr const char* kGraph = R"({"nodes": [
  {"name": "a", "durations": {"gpu0": 100e-6}}, {"name": "b", "durations": {"cpu0": 50e-6}}], "edges": []})";

std::string machine(const std::string& runtime, double gpu_dispatch_us = 20, double cpu_dispatch_us = 30) {
  return fmt::format(R"({}devices:
  - {{id: host, type: host_memory, memory: 1GiB}}
  - {{id: cpu0, type: cpu, cores: 1, fp32: 1TFLOPS, memory_bw: 10GB/s, dispatch: {}us}}
  - {{id: gpu0, type: gpu, memory: 1GiB, memory_bw: 100GB/s, fp32: 10TFLOPS, dispatch: {}us}}
links: [{{a: cpu0, b: host, bw: 10GB/s}}, {{a: host, b: gpu0, bw: 10GB/s}}]
)",
                     runtime, cpu_dispatch_us, gpu_dispatch_us);
}

Problem on(const std::string& hardware) {
  return problem(kGraph, hw::load_topology_text(hardware, "rt.yaml"), scheduler::WeightsMode::Resident);
}

Plan placed(const Problem& p) { return plan_for(p, {{"a", "gpu0"}, {"b", "cpu0"}}); }

std::vector<int> ops(const Problem& p, std::initializer_list<const char*> names) {
  std::vector<int> v;
  for (const char* n : names) v.push_back(p.graph->find(n));
  return v;
}

TEST(RuntimeDispatch, OneThreadDispatchesTheSecondDeviceAfterTheFirst) {
  // docs/execution.md's example. One thread, the default order (a, then b): a's dispatch 0..20
  // us, a runs 20..120 on gpu0; b's dispatch waits for a's (not for a itself: a GPU kernel runs
  // asynchronously), 20..50, and b runs 50..100 on cpu0. Makespan 120 us.
  const Problem p = on(machine("runtime: {dispatch_threads: 1}\n"));
  const Outcome r = run(p, placed(p));
  EXPECT_NEAR(r.end("a/dispatch"), 20e-6, tol(20e-6));
  EXPECT_NEAR(r.end("a"), 120e-6, tol(120e-6));
  EXPECT_NEAR(r.end("b/dispatch"), 50e-6, tol(50e-6));
  EXPECT_NEAR(r.end("b"), 100e-6, tol(100e-6));
  EXPECT_NEAR(r.makespan(), 120e-6, tol(120e-6));
  EXPECT_EQ(r.task("a/dispatch").kind, engine::TaskKind::Launch);
  EXPECT_TRUE(r.task("a/dispatch").uses.empty());  // host time: no device, no link
}

TEST(RuntimeDispatch, ACpuOpHoldsItsThreadUntilItEnds) {
  // Order b, a: b's dispatch 0..30 us, b 30..80 on cpu0, and the thread runs b, so a's dispatch
  // waits for b to end: 80..100, a 100..200. Makespan 200 us.
  const Problem p = on(machine("runtime: {dispatch_threads: 1}\n"));
  Plan plan = placed(p);
  plan.dispatch = {ops(p, {"b", "a"})};
  const Outcome r = run(p, plan);
  EXPECT_NEAR(r.end("b"), 80e-6, tol(80e-6));
  EXPECT_NEAR(r.end("a/dispatch"), 100e-6, tol(100e-6));
  EXPECT_NEAR(r.makespan(), 200e-6, tol(200e-6));
}

TEST(RuntimeDispatch, TwoThreadsDispatchInParallel) {
  // a on thread 0 (0..20, a 20..120), b on thread 1 (0..30, b 30..80).
  const Problem p = on(machine("runtime: {dispatch_threads: 2}\n"));
  Plan plan = placed(p);
  plan.dispatch = {ops(p, {"a"}), ops(p, {"b"})};
  const Outcome r = run(p, plan);
  EXPECT_NEAR(r.end("b"), 80e-6, tol(80e-6));
  EXPECT_NEAR(r.makespan(), 120e-6, tol(120e-6));
}

TEST(RuntimeDispatch, AMachineWithoutARuntimeStartsOpsAtOnce) {
  // No `runtime:` and no dispatch cost: no host model, both ops start at 0.
  const Problem p = on(machine("", 0, 0));
  const Outcome r = run(p, placed(p));
  EXPECT_NEAR(r.makespan(), 100e-6, tol(100e-6));
  EXPECT_LT(r.low.graph.find_task("a/dispatch"), 0);
}

TEST(RuntimeDispatch, ADispatchCostAloneBringsTheRuntimeIn) {
  // A device with a dispatch cost and no `runtime:` block: one thread, as in the first test.
  const Problem p = on(machine(""));
  EXPECT_NEAR(run(p, placed(p)).makespan(), 120e-6, tol(120e-6));
}

TEST(RuntimeDispatch, ThePlanFileCarriesTheThreads) {
  const Problem p = on(machine("runtime: {dispatch_threads: 2}\n"));
  Plan plan = placed(p);
  plan.dispatch = {ops(p, {"a"}), ops(p, {"b"})};
  const std::string text = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  EXPECT_NE(text.find("\"dispatch\""), std::string::npos);
  EXPECT_EQ(scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo), plan);
}

TEST(RuntimeDispatch, DispatchOnTheDeviceIsThePerOpProfileAssumption) {
  // `dispatch_on: device` (a paper's per-op profiles, Chrion's Eq. 2-3): each op's device pays
  // its dispatch, and no host thread orders them. With a and b priced by the roofline (a 1 GFLOP
  // on gpu0's 10 TFLOPS: 100 us; b 50 MFLOP on cpu0's 1 TFLOPS: 50 us), a takes 20 + 100 us and
  // b 30 + 50 us, side by side: makespan 120 us, no dispatch task.
  const char* shaped = R"({"nodes": [{"name": "a", "flops": 1e9}, {"name": "b", "flops": 5e7}], "edges": []})";
  const auto on_machine = [&](const std::string& runtime) {
    return problem(shaped, hw::load_topology_text(machine(runtime), "rt.yaml"), scheduler::WeightsMode::Resident);
  };
  const Problem device = on_machine("runtime: {dispatch_threads: 1, dispatch_on: device}\n");
  const Outcome r = run(device, placed(device));
  EXPECT_NEAR(r.end("a"), 120e-6, tol(120e-6));
  EXPECT_NEAR(r.end("b"), 80e-6, tol(80e-6));
  EXPECT_LT(r.low.graph.find_task("a/dispatch"), 0);
  // Explicit durations are the whole time, as with the launch: the first test's ops keep them.
  const Problem given = on(machine("runtime: {dispatch_on: device}\n"));
  EXPECT_NEAR(run(given, placed(given)).makespan(), 100e-6, tol(100e-6));
  // `dispatch_on: host` is the default: the same trace as without the key.
  const Problem plain = on_machine("runtime: {dispatch_threads: 1}\n");
  const Problem host = on_machine("runtime: {dispatch_threads: 1, dispatch_on: host}\n");
  const Outcome a = run(plain, placed(plain)), b = run(host, placed(host));
  ASSERT_EQ(a.trace.tasks.size(), b.trace.tasks.size());
  for (std::size_t i = 0; i < a.trace.tasks.size(); ++i) EXPECT_EQ(a.trace.tasks[i].end, b.trace.tasks[i].end);
  EXPECT_NEAR(a.makespan(), 120e-6, tol(120e-6));  // host: a dispatched 0..20, runs 20..120
}

// A bad plan or hardware file: the error says where and what was expected.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RuntimeDispatch, BadInputIsLocated) {
  const Problem p = on(machine("runtime: {dispatch_threads: 2}\n"));
  const auto plan_text = [&](const std::string& dispatch) {
    return fmt::format(R"({{"devices": {{"a": "gpu0", "b": "cpu0"}}, "dispatch": {},
  "queues": [{{"name": "gpu0.compute", "tasks": ["a"]}}, {{"name": "cpu0.compute", "tasks": ["b"]}}]}})",
                       dispatch);
  };
  const auto parse = [&](const std::string& dispatch) {
    return error_of([&] { scheduler::parse_plan(Json::load_string(plan_text(dispatch), "plan.json"), *p.graph, *p.topo); });
  };
  EXPECT_NE(parse(R"([["a"], ["b"], []])").find("plan.json:1:"), std::string::npos);
  EXPECT_NE(parse(R"([["a"], ["b"], []])").find("3 dispatch threads"), std::string::npos);
  EXPECT_NE(parse(R"([["a", "c"], ["b"]])").find("'c' is not an op"), std::string::npos);
  EXPECT_NE(parse(R"([["a", "a"], ["b"]])").find("dispatched by thread 0 already"), std::string::npos);
  EXPECT_NE(parse(R"([["a"]])").find("no dispatch thread dispatches op 'b'"), std::string::npos);
  EXPECT_NE(parse("[]").find("lists no thread"), std::string::npos);
  EXPECT_EQ(parse(R"([["a"], ["b"]])"), "");

  Plan plan = placed(p);
  plan.dispatch = {ops(p, {"a"}), ops(p, {"b"}), {}};
  EXPECT_NE(error_of([&] { scheduler::lower(p, plan); }).find("3 dispatch threads"), std::string::npos);
  plan.queues.push_back({"runtime.dispatch0", {}});
  plan.dispatch.clear();
  EXPECT_NE(error_of([&] { scheduler::lower(p, plan); }).find("the runtime's dispatch threads"), std::string::npos);

  const auto load = [](const std::string& text) { return error_of([&] { hw::load_topology_text(text, "rt.yaml"); }); };
  EXPECT_NE(load(machine("runtime: {dispatch_threads: 0}\n")).find("rt.yaml:1:"), std::string::npos);
  EXPECT_NE(load(machine("runtime: {dispatch_threads: 0}\n")).find("dispatch_threads must be 1"), std::string::npos);
  EXPECT_NE(load(machine("runtime: {threads: 2}\n")).find("threads"), std::string::npos);
  EXPECT_NE(load(machine("runtime: {dispatch_on: gpu}\n")).find("dispatch_on must be host"), std::string::npos);
  EXPECT_NE(load(machine("", -5)).find("rt.yaml:4:"), std::string::npos);
  std::string old = machine("");
  old.replace(old.find("dispatch: 20us"), 14, "op_overhead: 20us");
  EXPECT_NE(load(old).find("'op_overhead' is now 'dispatch'"), std::string::npos);
  // A plan with threads on a machine with no runtime.
  const Problem bare = on(machine("", 0, 0));
  Plan on_bare = placed(bare);
  on_bare.dispatch = {ops(bare, {"a", "b"})};
  EXPECT_NE(error_of([&] { scheduler::lower(bare, on_bare); }).find("declares no runtime"), std::string::npos);
}

}  // namespace
