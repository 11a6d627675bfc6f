// Seeded small problems for the milp-moirai tests: ops with explicit per-GPU durations, edges
// carrying their producer's output bytes, and GPUs joined pairwise by links of their own (random
// bandwidth per direction, random latency), so every ordered pair of GPUs is one channel on one
// link direction. The test keeps its own copy of each number to compute the model by hand.
#pragma once

#include <fmt/format.h>
#include <random>
#include <string>
#include <vector>

#include "tests/scheduler/placers/support.hpp"

namespace moirai_test {

using namespace placesim;

struct Tiny {
  scheduler::Problem problem;
  int ops = 0, gpus = 0;
  std::vector<std::vector<double>> dur;           // [op][gpu]
  std::vector<std::pair<int, int>> edges;         // (src, dst), src < dst
  std::vector<double> out_bytes;                  // [op]
  std::vector<std::vector<double>> bw, latency;   // [a][b], a != b
  double comm(int src_op, int a, int b) const { return a == b ? 0.0 : latency[a][b] + out_bytes[src_op] / bw[a][b]; }
};

// `ops` ops in index order (a topological order), each later op reading an earlier one with
// probability `density`; durations in [0.5, 2] s, outputs in [0.5, 4] GB, links of [1, 10] GB/s
// per direction and [0, 0.2] s latency (transfers comparable to compute). Memory unlimited.
// `identical`: every GPU runs each op in the same time and every link direction is alike.
inline Tiny tiny(std::uint64_t seed, int ops, int gpus, double density, bool ideal = false, bool identical = false) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> U(0, 1);
  Tiny t;
  t.ops = ops;
  t.gpus = gpus;
  std::string yaml = ideal ? "network: ideal\ndevices: [" : "devices: [";
  for (int k = 0; k < gpus; ++k)
    yaml += fmt::format("{}{{id: g{}, type: gpu, fp32: 10TFLOPS, memory_bw: 900GB/s, memory: 1e18}}", k ? ", " : "", k);
  yaml += "]\n";
  t.bw.assign(gpus, std::vector<double>(gpus, 0.0));
  t.latency.assign(gpus, std::vector<double>(gpus, 0.0));
  if (!ideal) {
    yaml += "links: [";
    bool first = true;
    for (int a = 0; a < gpus; ++a)
      for (int b = a + 1; b < gpus; ++b) {
        t.bw[a][b] = 1e9 * (1 + 9 * U(rng));
        t.bw[b][a] = 1e9 * (1 + 9 * U(rng));
        t.latency[a][b] = t.latency[b][a] = 0.2 * U(rng);
        if (identical && (a > 0 || b > 1)) t.bw[a][b] = t.bw[b][a] = t.bw[0][1], t.latency[a][b] = t.latency[b][a] = t.latency[0][1];
        if (identical && a == 0 && b == 1) t.bw[1][0] = t.bw[0][1];
        yaml += fmt::format("{}{{a: g{}, b: g{}, bw_ab: {:.17g}, bw_ba: {:.17g}, latency: {:.17g}}}", first ? "" : ", ", a,
                            b, t.bw[a][b], t.bw[b][a], t.latency[a][b]);
        first = false;
      }
    yaml += "]\n";
  }
  models::Graph g;
  g.name = fmt::format("tiny-{}", seed);
  for (int i = 0; i < ops; ++i) {
    models::Node n;
    n.name = fmt::format("op{}", i);
    n.type = "op";
    n.output_bytes = 1e9 * (0.5 + 3.5 * U(rng));
    t.out_bytes.push_back(n.output_bytes);
    t.dur.emplace_back();
    for (int k = 0; k < gpus; ++k) {
      t.dur.back().push_back(identical && k > 0 ? t.dur.back().front() : 0.5 + 1.5 * U(rng));
      n.durations[fmt::format("g{}", k)] = t.dur.back().back();
    }
    g.add_node(n);
  }
  for (int j = 1; j < ops; ++j)
    for (int i = 0; i < j; ++i)
      if (U(rng) < density) {
        g.add_edge(i, j, t.out_bytes[i]);
        t.edges.push_back({i, j});
      }
  g.validate();
  t.problem = placers_test::problem(std::move(g), hw::load_topology_text(yaml, "tiny.yaml"));
  return t;
}

}  // namespace moirai_test
