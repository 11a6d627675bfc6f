// The memory a task's kernel works on, allocated before the run so allocation is never timed.
//
// A GEMM gets A, B and C; a streaming op a source and a destination of half its bytes each; a
// copy a source and a destination of its bytes. Every task has buffers of its own, as every op
// of a real model reads its own weights. bytes_needed() is what a whole Workload allocates, so
// a plan that needs more memory than the machine has is refused before anything runs.
#pragma once

#include <cstddef>
#include <memory>

#include "hw/backend/workload.hpp"

namespace placesim::backend::cpu {

double bytes_needed(const Work& w);

class TaskBuffers {
 public:
  TaskBuffers() = default;
  // Allocates and touches (on the calling thread: first-touch places the pages on its NUMA node).
  explicit TaskBuffers(const Work& w);
  // Runs the task's kernel once.
  void run(const Work& w);

 private:
  std::unique_ptr<float[]> a_, b_, c_;
  std::size_t a_floats_ = 0, copy_bytes_ = 0;
};

}  // namespace placesim::backend::cpu
