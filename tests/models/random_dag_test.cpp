// Random layered DAGs: the same seed gives the same graph, the shape follows the spec, and the
// sampled communication-to-computation ratio is near the one asked for.
#include <gtest/gtest.h>

#include <set>

#include "models/generators/random_dag.hpp"
#include "models/graph_json.hpp"

namespace placesim::models {
namespace {

int level_of(const Node& n) { return std::stoi(n.name.substr(1, n.name.find('.') - 1)); }

TEST(RandomDag, SameSeedSameGraph) {
  RandomDagSpec s;
  s.seed = 7;
  EXPECT_EQ(graph_to_json(generate_random_dag(s)), graph_to_json(generate_random_dag(s)));
  RandomDagSpec other = s;
  other.seed = 8;
  EXPECT_NE(graph_to_json(generate_random_dag(s)), graph_to_json(generate_random_dag(other)));
}

// Pinned on one platform: std::mt19937_64 and our own uniform draws make it the same on every
// platform, so a change here means the draw order or the formulas changed.
TEST(RandomDag, PinnedForSeedOne) {
  const Graph g = generate_random_dag(RandomDagSpec{});
  EXPECT_EQ(g.nodes.size(), 33u);
  EXPECT_EQ(g.edges.size(), 61u);
}

TEST(RandomDag, ShapeFollowsTheSpec) {
  RandomDagSpec s;
  s.depth = 12;
  s.width = 5;
  s.jump = 3;
  s.density = 0.2;
  const Graph g = generate_random_dag(s);
  std::map<int, int> per_level;
  for (const Node& n : g.nodes) ++per_level[level_of(n)];
  ASSERT_EQ(per_level.size(), 12u);
  for (auto [level, count] : per_level) {
    EXPECT_GE(count, 1);
    EXPECT_LE(count, 2 * 5 - 1);
  }
  for (const Edge& e : g.edges) {
    const int d = level_of(g.nodes[e.dst]) - level_of(g.nodes[e.src]);
    EXPECT_GE(d, 1);
    EXPECT_LE(d, 3);
    EXPECT_EQ(e.bytes, g.nodes[e.src].output_bytes);
  }
  for (int v = 0; v < static_cast<int>(g.nodes.size()); ++v) {
    if (level_of(g.nodes[v]) > 0) {
      EXPECT_FALSE(g.in_edges(v).empty()) << g.nodes[v].name;
    }
  }
  EXPECT_EQ(g.name, "random-dag-s1-d12-w5");
}

// Work mode: w = flops / ref_flops = 1e9 / 1e13 = 100 us per op on average; edges carry on
// average ccr * w * ref_bandwidth = 2 * 1e-4 * 1e10 = 2 MB. Over ~4000 ops the sample means are
// within a few percent of these (standard error of U[0, 2m] over n: 0.58 m / sqrt(n) < 1%).
TEST(RandomDag, MeansFollowCcr) {
  RandomDagSpec s;
  s.depth = 400;
  s.width = 10;
  s.ccr = 2;
  const Graph g = generate_random_dag(s);
  double flops = 0, out = 0;
  for (const Node& n : g.nodes) {
    flops += n.flops;
    out += n.output_bytes;
  }
  const double n = static_cast<double>(g.nodes.size());
  EXPECT_NEAR(flops / n, 1e9, 0.05e9);
  EXPECT_NEAR(out / n, 2e6, 0.1e6);
  // An op's bytes: what it reads over its in-edges plus what it writes.
  const int v = g.find("n5.0");
  double in = 0;
  for (int e : g.in_edges(v)) in += g.edges[e].bytes;
  EXPECT_EQ(g.nodes[v].bytes, in + g.nodes[v].output_bytes);
}

// Durations mode: each device's duration within w_v (1 +- beta/2) of a common w_v, so any two
// differ by at most a factor (1 + beta/2) / (1 - beta/2) = 3 for beta = 1; edges get fixed times.
TEST(RandomDag, DurationsMode) {
  RandomDagSpec s;
  s.devices = {"p1", "p2", "p3"};
  s.mean = 10;
  s.beta = 1;
  s.ccr = 0.5;
  const Graph g = generate_random_dag(s);
  for (const Node& n : g.nodes) {
    ASSERT_EQ(n.durations.size(), 3u);
    EXPECT_EQ(n.flops, 0);
    double lo = 1e300, hi = 0;
    for (auto [dev, t] : n.durations) {
      lo = std::min(lo, t);
      hi = std::max(hi, t);
    }
    EXPECT_LE(hi, 3 * lo + 1e-12);
  }
  for (const Edge& e : g.edges) {
    ASSERT_TRUE(e.time_s.has_value());
    EXPECT_DOUBLE_EQ(*e.time_s, e.bytes / s.ref_bandwidth);
  }
}

std::string error_of(const std::string& text) {
  try {
    parse_random_dag_spec(Yaml::load_string(text, "d.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RandomDag, SpecFromYaml) {
  const RandomDagSpec s = parse_random_dag_spec(Yaml::load_string(
      "{generator: random-dag, seed: 3, depth: 5, width: 2, density: 0.1, jump: 2, ccr: 10, flops: 2e9,"
      " ref_flops: 1TFLOPS, ref_bandwidth: 1GB/s, durations: {devices: [p1, p2], mean: 5ms, beta: 0.25}}",
      "d.yaml"));
  EXPECT_EQ(s.seed, 3u);
  EXPECT_EQ(s.depth, 5);
  EXPECT_EQ(s.width, 2);
  EXPECT_EQ(s.density, 0.1);
  EXPECT_EQ(s.jump, 2);
  EXPECT_EQ(s.ccr, 10);
  EXPECT_EQ(s.flops, 2e9);
  EXPECT_EQ(s.ref_flops, 1e12);
  EXPECT_EQ(s.ref_bandwidth, 1e9);
  EXPECT_EQ(s.devices, (std::vector<std::string>{"p1", "p2"}));
  EXPECT_DOUBLE_EQ(s.mean, 5e-3);
  EXPECT_EQ(s.beta, 0.25);
  EXPECT_EQ(error_of("density: 1.5"), "d.yaml:1:10: expected a number in [0, 1], got '1.5'");
  EXPECT_EQ(error_of("depth: 0"), "d.yaml:1:8: expected an integer >= 1, got '0'");
  EXPECT_EQ(error_of("durations: {devices: []}"), "d.yaml:1:22: expected a non-empty list of device ids");
  EXPECT_EQ(error_of("durations: {devices: [a], beta: 3}"), "d.yaml:1:33: expected a number in [0, 2], got '3'");
  RandomDagSpec bad;
  bad.width = 0;
  EXPECT_THROW(generate_random_dag(bad), InputError);
}

}  // namespace
}  // namespace placesim::models
