// What every fuzz target shares: an input error (exit 2 in the CLI) is a correct answer to a
// malformed input, so it is caught; anything else (a crash, an assertion, a sanitizer report,
// another exception) escapes and libFuzzer records the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>

#include "hw/topology_yaml.hpp"
#include "models/graph.hpp"
#include "scheduler/placer.hpp"
#include "scheduler/problem.hpp"
#include "scheduler/score_plan.hpp"
#include "sim/core/error.hpp"
#include "sim/core/json_doc.hpp"
#include "app/explore/model_spec.hpp"

namespace placesim::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A file holding the input, for the loaders that read paths; one per process, so parallel
// fuzzing jobs do not share it.
inline std::string write_input(const std::uint8_t* data, std::size_t size, const std::string& ext) {
  const std::string path = "/tmp/placesim-fuzz-" + std::to_string(::getpid()) + ext;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

// The problem a graph poses on the SortingHat station (four GPUs, host memory, PCIe, NVLink),
// priced by the default cost model.
inline scheduler::Problem problem_on_preset(models::Graph g) {
  scheduler::Problem p;
  p.topo = std::make_shared<const hw::Topology>(hw::load_topology(Yaml(YAML::Node("sortinghat-v100"), "fuzz")));
  p.graph = std::make_shared<const models::Graph>(std::move(g));
  p.cost = explore::make_cost_model(Yaml(), *p.topo, *p.graph);
  return p;
}

// Larger inputs only slow the fuzzer down: every path they reach, a small input reaches too.
constexpr std::size_t kMaxNodes = 64;
constexpr std::int64_t kMaxChunks = 1024;  // over a plan's collectives
// Cluster nodes a hardware file may ask for (`count: N`): the placers weigh every op on every
// device, so a cluster of hundreds of nodes takes seconds to place on, and a minute under the
// sanitizers.
constexpr long kMaxClusterCount = 32;

inline bool asks_for_large_cluster(const std::string& text) {
  for (std::size_t at = text.find("count:"); at != std::string::npos; at = text.find("count:", at + 1)) {
    std::size_t i = at + 6;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t digits = 0;
    long n = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 10; ++i, ++digits) n = 10 * n + (text[i] - '0');
    if (digits == 10 || n > kMaxClusterCount) return true;
  }
  return false;
}

// Places the graph with a cheap placer and simulates the plan: lowering and the engine see
// whatever the loader let through.
inline void place_and_simulate(const scheduler::Problem& p) {
  if (p.graph->nodes.size() > kMaxNodes) return;
  const scheduler::PlacerSpec rr = scheduler::make_placer(Yaml(YAML::Node("round-robin"), "fuzz"));
  const scheduler::PlacerResult r = rr.placer->place(p);
  if (r.plan) scheduler::score_plan(p, *r.plan);
}

}  // namespace placesim::fuzz
