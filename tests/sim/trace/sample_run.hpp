// A small hand-made TaskGraph and the Trace of its run, shared by the trace-layer tests.
//
// A 1 MB weight copy over a 10 GB/s link with 1 us latency (0 -> 1 us -> 101 us), then two
// kernels on gpu0's compute queue: matmul (50 us, 101 -> 151 us) and add (20 us, 151 -> 171 us).
// Built field by field (no engine code runs), with every number chosen to be checked by hand.
#pragma once

#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::trace::testdata {

inline constexpr TimePs kUs = 1'000'000;  // picoseconds per microsecond

inline engine::TaskGraph sample_graph() {
  using engine::TaskKind;
  engine::TaskGraph g;
  g.resources = {{"gpu0", 1.0, false}, {"pcie0.down", 10e9, false}};
  g.add_queue("gpu0.compute");
  g.add_queue("gpu0.h2d");
  // Task: deps, uses, latency, bytes, queue, kind; then the op each implements.
  g.add_task("copy w", {{}, {{1, 1e6}}, 1 * kUs, 1e6, 1, TaskKind::Transfer});
  g.add_task("matmul", {{0}, {{0, 50e-6}}, 0, 0, 0, TaskKind::Compute}, {.op = 3});
  g.add_task("add", {{1}, {{0, 20e-6}}, 0, 0, 0, TaskKind::Compute}, {.op = 4});
  g.pools = {{"gpu0.mem", 16e9}};
  return g;
}

inline engine::Trace sample_trace() {
  engine::Trace t;
  t.tasks = {{0, 1 * kUs, 101 * kUs}, {101 * kUs, 101 * kUs, 151 * kUs}, {151 * kUs, 151 * kUs, 171 * kUs}};
  t.makespan = 171 * kUs;
  t.consumed = {70e-6, 1e6};
  t.busy_s = {70e-6, 100e-6};
  t.peak_memory = {1.5e6};
  t.memory = {{{0, 0}, {101 * kUs, 1e6}, {151 * kUs, 1.5e6}, {171 * kUs, 0}}};
  t.usage = {{{101 * kUs, 1.0}, {171 * kUs, 0}}, {{1 * kUs, 10e9}, {101 * kUs, 0}}};
  return t;
}

}  // namespace placesim::trace::testdata
