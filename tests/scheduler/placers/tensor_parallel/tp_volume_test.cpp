// The tensor-parallel placers' communication, simulated, against their papers' volume models:
// on the node-count systems (AsymGroup Fig. 8: N one-A100 nodes), every GPU sends what Megatron's
// ring all-reduce, AutoDDL's Eq. 1 and AsymGroup's Eq. 2-5 say, summed over the model's linear
// layers (scheduler/placers/tensor_parallel/asymgroup_cost.hpp holds the three models); and asymgroup
// simulates as it predicts on an asymmetric system at both fidelities.
#include <gtest/gtest.h>

#include "scheduler/comm_bytes.hpp"
#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"
#include "tests/scheduler/placers/support.hpp"

namespace {

using namespace placers_test;
namespace ag = scheduler::asymgroup;

// gpt2-large cut to 2 layers, fp16, decode of batch 8 over 128 positions: N = 8 tokens.
scheduler::Problem on_nodes(const std::string& nodes, models::Phase phase = models::Phase::Decode) {
  const Yaml hw = Yaml::load_string("{generator: asymgroup, nodes: " + nodes + "}", "hw.yaml");
  scheduler::Problem p = problem(gpt2_large_2_layers(phase), hw::load_topology(hw));
  p.collectives = engine::Fidelity::Analytic;
  return p;
}

// The bytes each GPU sends in the plan, simulated.
scheduler::CommBytes sent(const scheduler::Problem& p, const scheduler::Plan& plan) {
  const Simulated s = simulate(p, plan);
  return scheduler::comm_bytes(*p.topo, s.lowered.graph, s.trace);
}

// Per layer, the linears' input and output activations (a = 2 bytes, N = 8 tokens, h = 1280,
// f = 5120): qkv h -> 3h, out h -> h, up h -> f, down f -> h.
struct Linear {
  double in, out;
};
std::vector<Linear> linears() {
  const double a = 2, N = 8, h = 1280, f = 5120;
  std::vector<Linear> v;
  for (int layer = 0; layer < 2; ++layer)
    for (Linear l : {Linear{h, 3 * h}, Linear{h, h}, Linear{h, f}, Linear{f, h}}) v.push_back({a * N * l.in, a * N * l.out});
  return v;
}
constexpr double kHidden = 2.0 * 8 * 1280;  // a N h: the final norm's output, gathered whole for the tied head

TEST(TpVolume, MegatronSendsTwoAllReducesPerLayer) {
  for (int n : {2, 3, 4, 8}) {
    const scheduler::Problem p = on_nodes("{count: " + std::to_string(n) + ", gpus: 1}");
    const scheduler::CommBytes c = sent(p, *run_placer("megatron-tp", p).plan);
    const double expected = 2 * 2 * ag::megatron_all_reduce_volume(n, kHidden).total;
    for (auto& [gpu, bytes] : c.per_gpu) EXPECT_NEAR(bytes, expected, 1e-9 * expected) << n << " " << gpu;
  }
}

// AutoDDL on G one-GPU nodes in k groups: per linear, Eq. 1's all-gather of its input and
// reduce-scatter of its output; the tied head adds a ring all-gather of a N h over all G.
TEST(AutoDdl2dVolume, EveryGpuSendsEquationOne) {
  for (auto [n, k] : {std::pair{4, 2}, std::pair{8, 2}, std::pair{8, 4}, std::pair{6, 3}}) {
    const scheduler::Problem p = on_nodes("{count: " + std::to_string(n) + ", gpus: 1}");
    const scheduler::CommBytes c = sent(p, *run_placer("{name: autoddl-2d, k: " + std::to_string(k) + "}", p).plan);
    double expected = kHidden * (n - 1) / n;
    for (const Linear& l : linears())
      expected += ag::symmetric_2d_volume(n, k, l.in).intergroup + ag::symmetric_2d_volume(n, k, l.out).intragroup;
    for (auto& [gpu, bytes] : c.per_gpu) EXPECT_NEAR(bytes, expected, 1e-9 * expected) << n << "/" << k << " " << gpu;
  }
}

// AsymGroup on equal nodes in k equal groups sends what AutoDDL does (Eq. 5 = Eq. 1).
TEST(AsymGroupVolume, EqualNodesSendEquationOne) {
  for (auto [n, k] : {std::pair{4, 2}, std::pair{8, 4}, std::pair{6, 3}}) {
    const scheduler::Problem p = on_nodes("{count: " + std::to_string(n) + ", gpus: 1}");
    const scheduler::PlacerResult r = run_placer("{name: asymgroup, k: " + std::to_string(k) + "}", p);
    const scheduler::CommBytes c = sent(p, *r.plan);
    double eq1 = kHidden * (n - 1) / n;
    for (const Linear& l : linears())
      eq1 += ag::symmetric_2d_volume(n, k, l.in).intergroup + ag::symmetric_2d_volume(n, k, l.out).intragroup;
    for (auto& [gpu, bytes] : c.per_gpu) EXPECT_NEAR(bytes, eq1, 1e-9 * eq1) << n << "/" << k << " " << gpu;
  }
}

// `collectives: {volume: per-linear}` (AsymGroup's Eq. 1 measure): every linear's all-gather and
// reduce-scatter carry a N h whatever the linear's width, so the 2D schemes send Eq. 1 of a N h
// four times per layer, and Megatron's all-reduces (of the out projections, already a N h) are
// unchanged. Exact widths send more: qkv's 3h and the MLP's f = 4h.
TEST(TpVolume, PerLinearVolumeCountsTheActivationOnBothSides) {
  for (auto [n, k] : {std::pair{4, 2}, std::pair{6, 3}, std::pair{8, 4}}) {
    scheduler::Problem p = on_nodes("{count: " + std::to_string(n) + ", gpus: 1}");
    p.linear_volume = scheduler::LinearVolume::PerLinear;
    const ag::Volume per_linear = ag::symmetric_2d_volume(n, k, kHidden);
    const double eq1 = kHidden * (n - 1) / n + 2 * 4 * (per_linear.intergroup + per_linear.intragroup);
    const double megatron = 2 * 2 * ag::megatron_all_reduce_volume(n, kHidden).total;
    for (const std::string name : {"autoddl-2d", "asymgroup"}) {
      const std::string spec = "{name: " + name + ", k: " + std::to_string(k) + "}";
      for (auto& [gpu, bytes] : sent(p, *run_placer(spec, p).plan).per_gpu)
        EXPECT_NEAR(bytes, eq1, 1e-9 * eq1) << spec << " " << gpu;
      scheduler::Problem exact = p;
      exact.linear_volume = scheduler::LinearVolume::Exact;
      for (auto& [gpu, bytes] : sent(exact, *run_placer(spec, exact).plan).per_gpu) EXPECT_GT(bytes, eq1 * 1.5) << spec;
    }
    for (auto& [gpu, bytes] : sent(p, *run_placer("megatron-tp", p).plan).per_gpu)
      EXPECT_NEAR(bytes, megatron, 1e-9 * megatron) << n << " " << gpu;
  }
}

// Every node count of scenarios/asymgroup/node-count.yaml (read from the file: 1 to 64), each
// placer with the k it chooses itself: every GPU sends what its cost model says. Megatron: two
// all-reduces per layer; autoddl-2d: Eq. 1 at its k (which divides the count); asymgroup: where
// its k divides the count its groups are equal and Eq. 5 reduces to Eq. 1 at its k. Where it does
// not (a prime count: 7 nodes in [4, 3]) the groups are the even start's, sizes one apart and
// covering every node; what unequal groups send is Eq. 2-5's, which
// AsymGroup.AsymmetricSystemSimulatesAsPredicted holds.
TEST(TpVolume, EveryNodeCountOfTheScenarioSendsTheModelledVolume) {
  const Yaml scenario = Yaml::load_file(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/asymgroup/node-count.yaml");
  for (const Yaml& count : scenario.at("sweep").at("hardware.nodes.count").items()) {
    const int n = static_cast<int>(count.integer());
    if (n < 2) continue;  // one GPU sends nothing
    const scheduler::Problem p = on_nodes("{count: " + std::to_string(n) + ", gpus: 1}");
    auto eq1 = [&](int k) {
      double v = kHidden * (n - 1) / n;
      for (const Linear& l : linears())
        v += ag::symmetric_2d_volume(n, k, l.in).intergroup + ag::symmetric_2d_volume(n, k, l.out).intragroup;
      return v;
    };
    for (const char* placer : {"megatron-tp", "autoddl-2d", "asymgroup"}) {
      const scheduler::PlacerResult r = run_placer(placer, p);
      ASSERT_TRUE(r.plan) << placer << " " << n;
      double expected = 2 * 2 * ag::megatron_all_reduce_volume(n, kHidden).total;
      if (std::string(placer) != "megatron-tp") {
        const int k = r.choices.at("k").get<int>();
        if (n % k != 0) {
          ASSERT_EQ(std::string(placer), "asymgroup") << n << "/" << k;
          int covered = 0;
          for (const auto& g : r.choices.at("groups")) {
            const int size = static_cast<int>(g.size());
            EXPECT_TRUE(size == n / k || size == n / k + 1) << n << "/" << k;
            covered += size;
          }
          EXPECT_EQ(covered, n);
          continue;
        }
        if (r.choices.contains("groups"))
          for (const auto& g : r.choices.at("groups")) {
            ASSERT_EQ(static_cast<int>(g.size()) * k, n) << placer << " " << n;
          }
        expected = eq1(k);
      }
      for (auto& [gpu, bytes] : sent(p, *r.plan).per_gpu)
        EXPECT_NEAR(bytes, expected, 1e-9 * expected) << placer << " " << n << " " << gpu;
    }
  }
}

// S2-like: two 2-GPU nodes and two 1-GPU nodes, Fig. 4(d)'s capabilities [1, 1, 2, 3, 3] on five
// nodes (the uneven slices where equal-share max-min departs from Eq. 2), and [2, 1, 2, 1, 1] in
// three groups. asymgroup's plan simulates as it predicts (each collective alone on its links),
// and flow agrees with analytic within 1e-6: nothing else contends with a collective of these
// plans. In three groups of [2, 1, 2, 1, 1] the ranks end their all-gathers apart and go on at
// once (both fidelities); the placer's estimate bills every rank the last one's end, so it is a
// little late there (a few 1e-5).
TEST(AsymGroup, AsymmetricSystemSimulatesAsPredicted) {
  struct Case {
    const char *nodes, *spec;
    double predicted_within;  // relative; 0: to the picosecond rounding of each task
  };
  const std::vector<Case> cases{
      {"[2, 2, 1, 1]", "asymgroup", 0},
      {"[2, 2, 1, 1]", "{name: asymgroup, k: 2}", 0},
      {"[2, 2, 1, 1]", "{name: asymgroup, groups: [[n0, n3], [n1, n2]]}", 0},
      {"[1, 1, 1, 1, 1]", "{name: asymgroup, capability: [1, 1, 2, 3, 3], groups: [[n0, n1, n2], [n3, n4]]}", 0},
      {"[2, 1, 2, 1, 1]", "{name: asymgroup, k: 3}", 1e-4}};
  for (models::Phase phase : {models::Phase::Prefill, models::Phase::Decode}) {
    for (auto [nodes, spec, within] : cases) {
      scheduler::Problem p = on_nodes(nodes, phase);
      const scheduler::PlacerResult r = run_placer(spec, p);
      ASSERT_TRUE(r.plan) << spec;
      p.collectives = engine::Fidelity::Analytic;
      const Simulated analytic = simulate(p, *r.plan);
      const double rounding = 1e-12 * static_cast<double>(analytic.lowered.graph.tasks.size());
      EXPECT_NEAR(analytic.makespan, *r.predicted_s, std::max(rounding, within * analytic.makespan)) << spec;
      p.collectives = engine::Fidelity::Flow;
      EXPECT_NEAR(simulate(p, *r.plan).makespan, analytic.makespan, 1e-6 * analytic.makespan) << nodes << " " << spec;
    }
  }
}

// `cost: linears` weighs Eq. 3 by the inputs the split linears gather (per layer h, h, h, f) and
// Eq. 4 by the outputs they scatter (3h, h, f, h); the tied head is replicated, not on the grid.
// Under per-linear volume each linear counts a N h on both sides. `cost: eq5` is one linear's a N h.
TEST(AsymGroup, CostOfTheLinearsWeighsWhatTheyGatherAndScatter) {
  scheduler::Problem p = on_nodes("[2, 1, 2, 1, 1]");
  const ag::Capabilities c = {2, 1, 2, 1, 1};
  double gathered = 0, scattered = 0;
  for (const Linear& l : linears()) gathered += l.in, scattered += l.out;
  const double linears_count = static_cast<double>(linears().size());
  for (auto [volume, bytes] : {std::pair{scheduler::LinearVolume::Exact, ag::Payload(gathered, scattered)},
                               std::pair{scheduler::LinearVolume::PerLinear,
                                         ag::Payload(linears_count * kHidden, linears_count * kHidden)}}) {
    p.linear_volume = volume;
    for (auto [spec, want] :
         {std::pair{"{name: asymgroup, capability: gpus, cost: linears}", ag::search_groups(c, bytes)},
          std::pair{"{name: asymgroup, capability: gpus}", ag::search_groups(c, kHidden)}}) {
      const scheduler::PlacerResult r = run_placer(spec, p);
      EXPECT_EQ(r.choices.at("k").get<int>(), want.k) << spec;
      EXPECT_NEAR(r.choices.at("volume_bytes").get<double>(), want.volume.total, 1e-9 * want.volume.total) << spec;
      std::vector<std::vector<int>> groups;
      for (const auto& g : r.choices.at("groups")) {
        std::vector<int>& nodes = groups.emplace_back();
        for (const auto& name : g) nodes.push_back(std::stoi(name.get<std::string>().substr(1)));
      }
      EXPECT_EQ(groups, want.groups) << spec;
    }
  }
}

TEST(AsymGroup, BadOptionsAreErrors) {
  const scheduler::Problem p = on_nodes("[2, 1, 1]");
  for (auto [spec, what] : {std::pair{"{name: asymgroup, k: 4}", "k = 4 groups, but the GPUs are on 3 nodes"},
                            std::pair{"{name: asymgroup, capability: [1, 2]}", "capability lists 2 nodes"},
                            std::pair{"{name: asymgroup, groups: [[n0], [n9]]}", "no node 'n9'"},
                            std::pair{"{name: asymgroup, capability: [1, 0, 2]}", "expected"},
                            std::pair{"{name: asymgroup, cost: bytes}", "test.yaml:1:25: cost must be eq5 or linears"},
                            std::pair{"{name: asymgroup, groups: []}", "test.yaml:1:27: expected auto or at least one group"},
                            std::pair{"{name: asymgroup, groups: [[n0], []]}", "test.yaml:1:34: expected a group of at least one"}}) {
    try {
      run_placer(spec, p);
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  }
}

}  // namespace
