// The memory a task's kernel works on, allocated before the run so allocation is never timed.
//
// A GEMM gets A, B and C; a streaming op a source and a destination of half its bytes each; a
// copy a source and a destination of its bytes. Every task has buffers of its own, as every op
// of a real model reads its own weights. bytes_needed() is what a whole Workload allocates, so
// a plan that needs more memory than the machine has is refused before anything runs.
//
// A kernel can run in parts, one per core of a team (backend/cpu/core_team.hpp): part i of
// p computes its own slice, so the p parts together do the task's work once. A GEMM splits the
// longer of C's sides (columns: each part multiplies A by its columns of B; rows: its rows of A
// by B), a streaming op or a copy its bytes; a busy wait keeps every core busy for the whole
// time (each core of the team is taken for the op's duration).
#pragma once

#include <cstddef>
#include <memory>

#include "backend/workload.hpp"

namespace placesim::backend::cpu {

double bytes_needed(const Work& w);

class TaskBuffers {
 public:
  TaskBuffers() = default;
  // Allocates and touches (on the calling thread: first-touch places the pages on its NUMA node).
  explicit TaskBuffers(const Work& w);
  // Runs part `part` of `parts` of the task's kernel once (0 of 1: all of it).
  void run(const Work& w, int part = 0, int parts = 1);
  // What the kernel writes (C of a GEMM, the destination of a stream or a copy; null for the
  // others), so a run in parts can be checked against a run in one piece.
  const float* output() const { return c_ ? c_.get() : b_.get(); }

 private:
  std::unique_ptr<float[]> a_, b_, c_;
  std::size_t a_floats_ = 0, copy_bytes_ = 0;
};

}  // namespace placesim::backend::cpu
