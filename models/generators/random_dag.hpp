// Seeded random layered DAGs, for tests, benchmarks and the classic list-scheduling experiments
// (the generator of Topcuoglu, Hariri and Wu, HEFT, 2002, with levels instead of a shape factor).
//
// Structure: `depth` levels; level l holds n_l ~ U{1 .. 2*width-1} ops (mean `width`). Every
// pair (u at level i, v at level j), i < j <= i + jump, is an edge with probability `density`;
// an op at level l > 0 left without a predecessor then gets one, drawn uniformly from level l-1.
//
// Work: with w = the mean computation time (`flops / ref_flops` in work mode, `mean` in
// durations mode), op v gets a mean time w_v ~ U[0, 2w] and an output of
// b_v ~ U[0, 2 * ccr * w * ref_bandwidth] bytes carried by each of its out-edges, so the mean
// edge time on the reference link over the mean op time is `ccr`.
//   work mode:      flops_v = w_v * ref_flops, bytes_v = sum of in-edge bytes + b_v
//   durations mode: for each listed device p, d_{v,p} ~ U[w_v (1 - beta/2), w_v (1 + beta/2)]
//                   (Topcuoglu's heterogeneity beta); each edge gets the fixed time
//                   b_v / ref_bandwidth (for `network: ideal`), flops and bytes are 0.
//
// Deterministic for a seed on every platform: std::mt19937_64 is specified exactly and the
// uniform draws below it are our own (std distributions differ between standard libraries).
// Draw order: level sizes, then edges (u in order, v in order), then missing parents, then per
// op in index order w_v, b_v and its durations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/graph.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::models {

struct RandomDagSpec {
  std::uint64_t seed = 1;
  int depth = 8;
  int width = 4;
  double density = 0.5;
  int jump = 1;
  double ccr = 1.0;
  double flops = 1e9;              // work mode: mean op flops
  double ref_flops = 1e13;         // flops/s of the reference device
  double ref_bandwidth = 1e10;     // bytes/s of the reference link
  std::vector<std::string> devices;  // non-empty: durations mode, one duration per device
  double mean = 1e-3;              // durations mode: mean op time, seconds
  double beta = 0.5;               // durations mode: heterogeneity, in [0, 2]
  DType dtype = DType::FP32;
};

// Keys: generator (optional, must be "random-dag"), seed, depth, width, density, jump, ccr,
// flops, ref_flops ("10TFLOPS"), ref_bandwidth ("10GB/s"), dtype, and
// durations: {devices: [p1, p2], mean: 10ms, beta: 0.5}. Errors at the key or value.
RandomDagSpec parse_random_dag_spec(const Yaml& model);
// The graph, validated, named "random-dag-s<seed>-d<depth>-w<width>"; ops are "n<level>.<i>".
// InputError (no location) for a spec parse_random_dag_spec would reject.
Graph generate_random_dag(const RandomDagSpec& spec);

}  // namespace placesim::models
