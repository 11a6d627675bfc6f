// Sliced ops (scheduler/plan/slices.hpp): the slices' work conserves the op's, a column split
// over k ideal devices takes 1/k of the op, a split linear layer joined by a collective on
// dgx-a100 takes the roofline of its half plus the collective's closed form, plans with splits
// round-trip through JSON, and bad splits and missing joins are errors naming the op.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

#include "models/op_shape.hpp"
#include "models/op_slice.hpp"
#include "scheduler/plan/json.hpp"
#include "scheduler/plan/rules.hpp"
#include "scheduler/plan/slices.hpp"
#include "tests/scheduler/fidelity_support.hpp"

namespace {

using namespace fidelity;
using models::Axis;

// A linear layer x[m, k] W[k, n] in fp16 (2-byte weights and activations), its weight a
// parameter, feeding `act` (1 ms on gpu0 by explicit duration).
constexpr double M = 256, N = 8192, K = 4096, E = 2;

std::string linear_graph() {
  return fmt::format(R"({{"name": "linear", "dtype": "fp16", "nodes": [
    {{"name": "w", "param_bytes": {w}}},
    {{"name": "fc", "type": "matmul", "bytes": {bytes}, "output_bytes": {out},
      "shape": {{"gemm": {{"m": {m}, "n": {n}, "k": {k}, "weight": "b"}}}}}},
    {{"name": "act", "durations": {{"gpu0": 1e-3}}}}],
  "edges": [{{"src": "w", "dst": "fc"}}, {{"src": "fc", "dst": "act"}}]}})",
                     fmt::arg("w", E * K * N), fmt::arg("bytes", E * (M * K + K * N + M * N)), fmt::arg("out", E * M * N),
                     fmt::arg("m", M), fmt::arg("n", N), fmt::arg("k", K));
}

// The plan: fc split 50/50 along `axis` over gpu0 and gpu1, joined by `op` before act on gpu0.
std::string split_plan(const char* axis, const char* op) {
  return fmt::format(R"({{"devices": {{"act": "gpu0"}},
  "splits": {{"fc": {{"axis": "{axis}", "slices": [{{"device": "gpu0", "share": 0.5}}, {{"device": "gpu1", "share": 0.5}}]}}}},
  "collectives": [{{"name": "join", "op": "{op}", "group": ["gpu0", "gpu1"], "bytes": {S}, "after": ["fc"],
                   "before": ["act"]}}],
  "queues": [{{"name": "gpu0.compute", "tasks": ["fc#0", "act"]}}, {{"name": "gpu1.compute", "tasks": ["fc#1"]}}]}})",
                     fmt::arg("axis", axis), fmt::arg("op", op), fmt::arg("S", E * M * N));
}

// The roofline as models/cost/cost_model.hpp states it, for an op of `flops` and `bytes` on `d`.
double roofline(const hw::Device& d, double flops, double bytes) {
  const double c = flops / d.tensor_flops;
  const double m = bytes / (d.cache_bytes > 0 && bytes <= d.cache_bytes ? d.cache_bw : d.memory_bw);
  return d.launch_s + std::max(c, m) + (1 - d.overlap) * std::min(c, m);
}

Plan load(const Problem& p, const std::string& text) {
  return scheduler::parse_plan(Json::load_string(text, "plan.json"), *p.graph, *p.topo);
}

// Column split: each half computes x W[:, half] (2 m k n/2 flops; reads x whole, half of W,
// writes half of the output); the ring all-gather of the m x n output S = 2 m n bytes over two
// ranks is one step of S/2 each way: L + S / (2 B) (sim/engine/collectives/ring.cpp). act then
// runs its 1 ms on gpu0.
TEST(Slices, ColumnSplitThenAllGatherOnDgxA100IsTheClosedForm) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const hw::Device& gpu = p.topo->devices[p.topo->index("gpu0")];
  const double half = roofline(gpu, 2 * M * K * N / 2, E * (M * K + K * N / 2 + M * N / 2));
  const Path hop = path(*p.topo, "gpu0", "gpu1");
  const double S = E * M * N;
  const double expected = half + (hop.latency + S / (2 * hop.bw)) + 1e-3;
  const Outcome r = run(p, load(p, split_plan("cols", "all-gather")));
  EXPECT_NEAR(r.makespan(), expected, tol(expected));
  EXPECT_NEAR(r.end("fc#1"), half, tol(half));
}

// Row split: each half computes x[:, half] W[half, :] (2 m (k/2) n flops; reads half of x and of
// W, writes partial sums of the whole output); the ring all-reduce of S over two ranks is
// reduce-scatter then all-gather, 2 (L + S / (2 B)).
TEST(Slices, RowSplitThenAllReduceOnDgxA100IsTheClosedForm) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const hw::Device& gpu = p.topo->devices[p.topo->index("gpu0")];
  const double half = roofline(gpu, 2 * M * (K / 2) * N, E * (M * K / 2 + K / 2 * N + M * N));
  const Path hop = path(*p.topo, "gpu0", "gpu1");
  const double S = E * M * N;
  const double expected = half + 2 * (hop.latency + S / (2 * hop.bw)) + 1e-3;
  const Outcome r = run(p, load(p, split_plan("rows", "all-reduce")));
  EXPECT_NEAR(r.makespan(), expected, tol(expected));
}

// Each slice's memory sits on its own device: with weights resident, half of W on each GPU.
TEST(Slices, EachSliceHoldsItsShareOfTheWeightOnItsDevice) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const Plan plan = load(p, split_plan("cols", "all-gather"));
  const scheduler::Lowered low = scheduler::lower(p, plan);
  double on[2] = {0, 0};
  for (const engine::Buffer& b : low.graph.buffers)
    for (int i = 0; i < 2; ++i)
      if (b.name == fmt::format("w#{}@gpu{}", i, i)) on[i] = b.bytes;
  EXPECT_DOUBLE_EQ(on[0], E * K * N / 2);
  EXPECT_DOUBLE_EQ(on[1], E * K * N / 2);
}

TEST(Slices, PlanJsonRoundTripsSplits) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const Plan plan = load(p, split_plan("rows", "all-reduce"));
  ASSERT_EQ(plan.splits.size(), 1u);
  const std::string json = scheduler::plan_to_json(plan, *p.graph, *p.topo);
  EXPECT_EQ(load(p, json), plan) << json;
}

// Random ops of every shape, split along each of their axes into 1-6 random shares: the slices'
// flops sum to the op's, and on an axis that partitions the weight so do their parameter bytes.
TEST(Slices, SlicesConserveFlopsAndParameterBytes) {
  std::mt19937_64 rng(12);
  auto dim = [&](int hi) { return static_cast<double>(std::uniform_int_distribution<int>(1, hi)(rng)); };
  const hw::Topology topo = preset("dgx-a100");
  int checked = 0;
  for (int trial = 0; trial < 200; ++trial) {
    models::OpShape shape;
    switch (trial % 4) {
      case 0: shape = models::GemmShape{dim(4), dim(512), dim(4096), dim(4096), models::GemmWeight::B, double(trial % 2)}; break;
      case 1: {
        const double kv = dim(8);
        shape = models::AttentionShape{dim(4), kv * dim(4), kv, dim(128), dim(512), dim(2048)};
        break;
      }
      case 2: shape = models::ElementwiseShape{dim(1 << 20), dim(8), dim(3), dim(4096)}; break;
      default: shape = models::LstmShape{dim(64), dim(1024), dim(1024)};
    }
    for (Axis axis : models::axes_of(shape)) {
      models::Graph g;
      g.dtype = models::DType::BF16;
      models::Node param, node;
      param.name = "w";
      param.kind = models::NodeKind::Param;
      param.param_bytes = models::shape_weight_bytes(shape, g.dtype);
      node.name = "op";
      node.flops = models::shape_flops(shape);
      node.bytes = models::shape_bytes(shape, g.dtype);
      node.shape = shape;
      const int w = g.add_node(param);
      const int op = g.add_node(node);
      g.add_edge(w, op, g.nodes[w].param_bytes);
      g.validate();
      const int k = std::uniform_int_distribution<int>(1, 6)(rng);
      std::vector<double> raw(k);
      double total = 0;
      for (double& x : raw) total += x = std::uniform_real_distribution<double>(0.05, 1)(rng);
      Plan plan;
      scheduler::PlanSplit& split = plan.splits[op];
      split.axis = axis;
      for (int i = 0; i < k; ++i) split.slices.push_back({topo.index(fmt::format("gpu{}", i)), raw[i] / total});
      ASSERT_EQ(scheduler::check_split(g, topo, op, split).message, "");
      const models::Graph s = scheduler::slice_graph(g, plan);
      const auto ids = scheduler::slice_ids(g, plan.splits);
      double flops = 0, params = 0;
      for (int id : ids.at(op)) flops += s.nodes[id].flops;
      for (const models::Node& n : s.nodes)
        if (n.kind == models::NodeKind::Param) params += n.param_bytes;
      EXPECT_NEAR(flops, g.nodes[op].flops, 1e-12 * g.nodes[op].flops) << models::to_string(axis);
      EXPECT_NEAR(params, g.nodes[w].param_bytes, 1e-12 * g.nodes[w].param_bytes) << models::to_string(axis);
      const bool partitions = models::slice_shape(shape, axis, 0.5).partitions_weight;
      EXPECT_EQ(ids.count(w) == 1, partitions && g.nodes[w].param_bytes > 0);
      ++checked;
    }
  }
  EXPECT_GT(checked, 400);
}

// k identical devices, no launch cost, no network cost: a compute-bound GEMM split k ways by
// columns ends at 1/k of its whole time (overlap 1: the roofline is the larger of compute and
// memory time, here compute, which splits exactly).
TEST(Slices, KWayColumnSplitOnIdealDevicesTakesOneKth) {
  for (int k : {2, 3, 4, 8}) {
    std::string devices;
    for (int i = 0; i < k; ++i)
      devices += fmt::format("{}{{id: gpu{}, type: gpu, memory: 80GiB, memory_bw: 2TB/s, fp32: 20TFLOPS, tensor: 300TFLOPS}}",
                             i ? ", " : "", i);
    const Problem p = problem(linear_graph(), hw::load_topology_text("network: ideal\ndevices: [" + devices + "]\n", "ideal.yaml"),
                              scheduler::WeightsMode::Resident);
    Plan whole = plan_for(p, {{"fc", "gpu0"}, {"act", "gpu0"}});
    const double t = run(p, whole).end("fc");
    Plan plan;
    scheduler::PlanSplit& split = plan.splits[p.graph->find("fc")];
    split.axis = Axis::Cols;
    for (int i = 0; i < k; ++i) split.slices.push_back({i, 1.0 / k});
    const Problem s = scheduler::sliced_problem(p, plan);
    std::vector<int> device_of(s.graph->nodes.size(), -1);
    const auto ids = scheduler::slice_ids(*p.graph, plan.splits);
    for (int i = 0; i < k; ++i) device_of[ids.at(p.graph->find("fc"))[i]] = i;
    device_of[s.graph->find("act")] = 0;
    Plan built = scheduler::build_plan(s, "test", device_of, s.graph->ops());
    built.splits = plan.splits;
    const Outcome r = run(p, built);
    for (int i = 0; i < k; ++i) EXPECT_NEAR(r.end(fmt::format("fc#{}", i)), t / k, tol(t)) << k;
  }
}

void expect_plan_error(const Problem& p, const std::string& text, const std::string& what) {
  try {
    const Plan plan = load(p, text);
    (void)scheduler::lower(p, plan);
    ADD_FAILURE() << "no error, expected: " << what;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

std::string with_split(const std::string& split) {
  return R"({"devices": {"act": "gpu0"}, "splits": {)" + split + R"(}, "queues": []})";
}

TEST(Slices, BadSplitsAreErrorsNamingTheOp) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const std::string halves = R"([{"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.5}])";
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "slices": [{"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.4}]})"),
                    "split of 'fc': the slices' shares sum to 0.9, not 1");
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "slices": [{"device": "gpu0", "share": 1.5}]})"),
                    "split of 'fc': a slice's share must be in (0, 1], got 1.5");
  expect_plan_error(p, with_split(R"("fc": {"axis": "heads", "slices": )" + halves + "}"),
                    "split of 'fc': an op of shape gemm has no axis 'heads' (its axes: rows, cols, tokens, batch)");
  expect_plan_error(p, with_split(R"("fc": {"axis": "diagonal", "slices": )" + halves + "}"), "unknown axis 'diagonal'");
  expect_plan_error(p, with_split(R"("fc": {"axis": "replicas", "slices": [{"device": "gpu0", "share": 0.5}]})"),
                    "split of 'fc': a replica is the whole op, so its share is 1, not 0.5");
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "inner": "cols", "slices": )" + halves + "}"),
                    "split of 'fc': the inner axis must be another axis");
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "inner": "rows", "slices": [{"device": "gpu0", "share": 0.5, "inner_share": 0.5}, {"device": "gpu1", "share": 0.5, "inner_share": 0.5}]})"),
                    "split of 'fc': the slices' shares sum to 0.5, not 1");
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "slices": [{"device": "gpu0", "share": 1, "inner_share": 0.5}]})"),
                    "split of 'fc': a slice has an inner share but the split no inner axis");
  // Inner replicas: runs of c equal copies whose shares sum to c (here 1.5, and runs of unequal shares).
  expect_plan_error(p, with_split(R"("fc": {"axis": "batch", "inner": "replicas", "slices": [{"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.5}, {"device": "gpu2", "share": 0.5}]})"),
                    "split of 'fc': with inner replicas the slices must come in runs of c copies");
  expect_plan_error(p, with_split(R"("fc": {"axis": "batch", "inner": "replicas", "slices": [{"device": "gpu0", "share": 0.75}, {"device": "gpu1", "share": 0.25}, {"device": "gpu2", "share": 0.25}, {"device": "gpu3", "share": 0.75}]})"),
                    "the shares sum to 2");
  expect_plan_error(p, with_split(R"("fc": {"axis": "cols", "slices": [{"device": "host0", "share": 1}]})"),
                    "split of 'fc': a slice is on a device that does not compute");
  expect_plan_error(p, with_split(R"("w": {"axis": "cols", "slices": )" + halves + "}"), "'w' is a parameter");
  expect_plan_error(p, with_split(R"("act": {"axis": "cols", "slices": )" + halves + "}"),
                    "op 'act' has explicit per-device durations");
  // A row split's partial sums reach act with no reduce.
  expect_plan_error(p, with_split(R"("fc": {"axis": "rows", "slices": )" + halves + "}"),
                    "op 'act' reads the partial sums of row-split 'fc' with no reduce to join them");
  // ... or joined by a gather, which does not add them.
  std::string gathered = split_plan("rows", "all-gather");
  expect_plan_error(p, gathered, "collective 'join' joins row-split 'fc' for 'act' by all-gather");
  // The split op itself is not a task: its slices are.
  std::string whole = split_plan("cols", "all-gather");
  whole.replace(whole.find("\"fc#0\""), 6, "\"fc\"");
  expect_plan_error(p, whole, "no node 'fc'");
}

// A column split with no collective is concatenated by deliveries: each slice's half of the
// output moves to act's device (fc#1@gpu0); the slice already there moves nothing.
TEST(Slices, ColumnSplitWithoutCollectiveIsConcatenatedByTransfers) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  Plan plan = load(p, split_plan("cols", "all-gather"));
  plan.collectives.clear();
  const Problem s = scheduler::sliced_problem(p, plan);
  Plan built = scheduler::build_plan(s, "test", plan.device_of, scheduler::plan_order(*s.graph, {}, scheduler::slice_ids(*p.graph, plan.splits)));
  built.splits = plan.splits;
  const Outcome r = run(p, built);
  const engine::Task& moved = r.task("fc#1@gpu0");
  EXPECT_DOUBLE_EQ(moved.bytes, E * M * N / 2);
}

// Inner replicas: fc's two halves of the batch each copied on two GPUs (gpu0, gpu1 | gpu2, gpu3).
// act on gpu0 takes each half once: the first from its copy there (nothing moves), the second
// from its first copy (fc#2@gpu0: half the output); the other copies deliver nothing.
TEST(Slices, CopiedPartsAreConcatenatedOnceEach) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const Plan plan = load(p, with_split(R"("fc": {"axis": "batch", "inner": "replicas", "slices": [
    {"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.5}, {"device": "gpu2", "share": 0.5},
    {"device": "gpu3", "share": 0.5}]})"));
  EXPECT_EQ(plan.splits.at(p.graph->find("fc")).copies(), 2);
  const Problem s = scheduler::sliced_problem(p, plan);
  Plan built = scheduler::build_plan(s, "test", plan.device_of, scheduler::plan_order(*s.graph, {}, scheduler::slice_ids(*p.graph, plan.splits)));
  built.splits = plan.splits;
  const Outcome r = run(p, built);
  EXPECT_DOUBLE_EQ(r.task("fc#2@gpu0").bytes, E * M * N / 2);
  EXPECT_EQ(r.low.graph.find_task("fc#1@gpu0"), -1);
  EXPECT_EQ(r.low.graph.find_task("fc#3@gpu0"), -1);
}

// Weights in host memory: each column slice's half of W is delivered to its own GPU as any
// parameter is, copied (`w#0@gpu0`) or read by direct host access while the slice computes.
TEST(Slices, EachSliceHasItsOwnParameterDelivery) {
  const Problem p = problem(linear_graph(), preset("dgx-a100"), scheduler::WeightsMode::Host);
  std::string text = split_plan("cols", "all-gather");
  text.replace(text.find("\"queues\": ["), 11,
               R"("params": {"w#1@gpu1": {"via": "dha"}},
  "queues": [{"name": "gpu0.h2d", "tasks": ["w#0@gpu0"]}, )");
  const Outcome r = run(p, load(p, text));
  EXPECT_DOUBLE_EQ(r.task("w#0@gpu0").bytes, E * K * N / 2);
  EXPECT_EQ(r.task("fc#1").kind, engine::TaskKind::Dha);
  EXPECT_DOUBLE_EQ(r.task("fc#1").bytes, E * K * N / 2);
  EXPECT_EQ(r.task("fc#0").kind, engine::TaskKind::Compute);
}

// Megatron's MLP on two GPUs: the norm replicated on both, up column-split and the activation
// split the same way (each GPU keeps its columns), down row-split, its partial sums all-reduced
// before the residual add, replicated too. Nothing moves but the all-reduce: every edge finds its
// data on its own device.
TEST(Slices, MegatronMlpMovesNothingButTheAllReduce) {
  constexpr double T = 64, H = 1024, F = 4096;
  const std::string graph = fmt::format(R"({{"name": "mlp", "dtype": "fp16", "nodes": [
    {{"name": "ln", "bytes": {ln_bytes}, "output_bytes": {x}, "shape": {{"elementwise": {{"elements": {th}, "flops_per_element": 8}}}}}},
    {{"name": "up.w", "param_bytes": {w}}}, {{"name": "down.w", "param_bytes": {w}}},
    {{"name": "up", "bytes": {up_bytes}, "output_bytes": {y}, "shape": {{"gemm": {{"m": {t}, "n": {f}, "k": {h}, "weight": "b"}}}}}},
    {{"name": "act", "bytes": {act_bytes}, "output_bytes": {y}, "shape": {{"elementwise": {{"elements": {tf}, "flops_per_element": 8}}}}}},
    {{"name": "down", "bytes": {down_bytes}, "output_bytes": {x}, "shape": {{"gemm": {{"m": {t}, "n": {h}, "k": {f}, "weight": "b"}}}}}},
    {{"name": "add", "bytes": {add_bytes}, "output_bytes": {x}, "shape": {{"elementwise": {{"elements": {th}, "inputs": 2}}}}}}],
  "edges": [{{"src": "ln", "dst": "up"}}, {{"src": "up.w", "dst": "up"}}, {{"src": "up", "dst": "act"}},
            {{"src": "act", "dst": "down"}}, {{"src": "down.w", "dst": "down"}}, {{"src": "down", "dst": "add"}},
            {{"src": "ln", "dst": "add"}}]}})",
                                        fmt::arg("t", T), fmt::arg("h", H), fmt::arg("f", F), fmt::arg("th", T * H),
                                        fmt::arg("tf", T * F), fmt::arg("x", E * T * H), fmt::arg("y", E * T * F),
                                        fmt::arg("w", E * H * F), fmt::arg("ln_bytes", 2 * E * T * H),
                                        fmt::arg("up_bytes", E * (T * H + H * F + T * F)),
                                        fmt::arg("act_bytes", 2 * E * T * F),
                                        fmt::arg("down_bytes", E * (T * F + F * H + T * H)),
                                        fmt::arg("add_bytes", 3 * E * T * H));
  const Problem p = problem(graph, preset("dgx-a100"), scheduler::WeightsMode::Resident);
  const std::string both = R"([{"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.5}])";
  const std::string replicas = R"([{"device": "gpu0"}, {"device": "gpu1"}])";
  const Plan plan = load(p, fmt::format(R"({{"devices": {{}},
  "splits": {{"ln": {{"axis": "replicas", "slices": {r}}}, "up": {{"axis": "cols", "slices": {b}}},
             "act": {{"axis": "cols", "slices": {b}}}, "down": {{"axis": "rows", "slices": {b}}},
             "add": {{"axis": "replicas", "slices": {r}}}}},
  "collectives": [{{"name": "ar", "op": "all-reduce", "group": ["gpu0", "gpu1"], "bytes": {S}, "after": ["down"],
                   "before": ["add"]}}],
  "queues": [{{"name": "gpu0.compute", "tasks": ["ln#0", "up#0", "act#0", "down#0", "add#0"]}},
             {{"name": "gpu1.compute", "tasks": ["ln#1", "up#1", "act#1", "down#1", "add#1"]}}]}})",
                                        fmt::arg("r", replicas), fmt::arg("b", both), fmt::arg("S", E * T * H)));
  const Outcome r = run(p, plan);
  for (std::size_t t = 0; t < r.low.graph.tasks.size(); ++t)
    EXPECT_TRUE(r.low.graph.tasks[t].kind == engine::TaskKind::Compute || r.low.graph.name(t).starts_with("ar"))
        << r.low.graph.name(t);
  // The replicas each do the whole norm; the split ops half of theirs.
  const models::Graph s = scheduler::slice_graph(*p.graph, plan);
  EXPECT_DOUBLE_EQ(s.nodes[s.find("ln#1")].flops, p.graph->nodes[p.graph->find("ln")].flops);
  EXPECT_DOUBLE_EQ(s.nodes[s.find("down#1")].flops, p.graph->nodes[p.graph->find("down")].flops / 2);
  // add#1 reads the norm's replica on gpu1, and gets the partial sums from the all-reduce.
  std::vector<std::string> into_add1;
  for (int e : s.in_edges(s.find("add#1"))) into_add1.push_back(s.nodes[s.edges[e].src].name);
  EXPECT_EQ(into_add1, std::vector<std::string>{"ln#1"});
  EXPECT_EQ(load(p, scheduler::plan_to_json(plan, *p.graph, *p.topo)), plan);
}

// A 2D split: the linear layer's columns between two groups, its rows within each, on four
// ideal devices: each slice is a GEMM of m x k/2 x n/2, a quarter of the flops and of the weight,
// and ends at a quarter of the whole op's time (compute-bound, overlap 1, no launch cost).
TEST(Slices, TwoDimensionalSplitGivesEachSliceItsBlock) {
  std::string devices;
  for (int i = 0; i < 4; ++i)
    devices += fmt::format("{}{{id: gpu{}, type: gpu, memory: 80GiB, memory_bw: 2TB/s, fp32: 20TFLOPS, tensor: 300TFLOPS}}",
                           i ? ", " : "", i);
  const Problem p = problem(linear_graph(), hw::load_topology_text("network: ideal\ndevices: [" + devices + "]\n", "ideal.yaml"),
                            scheduler::WeightsMode::Resident);
  const double whole = run(p, plan_for(p, {{"fc", "gpu0"}, {"act", "gpu0"}})).end("fc");
  const Plan plan = load(p, R"({"devices": {"act": "gpu0"},
  "splits": {"fc": {"axis": "cols", "inner": "rows", "slices": [
    {"device": "gpu0", "share": 0.5, "inner_share": 0.5}, {"device": "gpu1", "share": 0.5, "inner_share": 0.5},
    {"device": "gpu2", "share": 0.5, "inner_share": 0.5}, {"device": "gpu3", "share": 0.5, "inner_share": 0.5}]}},
  "collectives": [{"name": "rs", "op": "reduce-scatter", "group": ["gpu0", "gpu1", "gpu2", "gpu3"], "bytes": 1e6,
                   "after": ["fc"], "before": ["act"]}],
  "queues": [{"name": "gpu0.compute", "tasks": ["fc#0", "act"]}, {"name": "gpu1.compute", "tasks": ["fc#1"]},
             {"name": "gpu2.compute", "tasks": ["fc#2"]}, {"name": "gpu3.compute", "tasks": ["fc#3"]}]})");
  const models::Graph s = scheduler::slice_graph(*p.graph, plan);
  const auto& gemm = std::get<models::GemmShape>(s.nodes[s.find("fc#3")].shape);
  EXPECT_EQ(std::vector<double>({gemm.m, gemm.k, gemm.n}), std::vector<double>({M, K / 2, N / 2}));
  EXPECT_DOUBLE_EQ(s.nodes[s.find("w#3")].param_bytes, E * K * N / 4);
  const Outcome r = run(p, plan);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.end(fmt::format("fc#{}", i)), whole / 4, tol(whole));
  EXPECT_EQ(load(p, scheduler::plan_to_json(plan, *p.graph, *p.topo)), plan);
}

}  // namespace
