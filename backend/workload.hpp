// What a real executor runs for each task of a TaskGraph, and where (docs/execution.md: one IR, three
// executors").
//
// The TaskGraph says when a task may start (deps, queue order) and what it costs in the
// simulator; a Workload says what to execute for it on real hardware: a GEMM of M x K times
// K x N, a streaming loop over a number of bytes, a busy wait of a given time, a copy from one
// memory to another, a DHA kernel that reads host memory while it computes, or nothing. It is
// built outside this layer (app/explore/validate_workload) from the model graph, so the
// backends know nothing of models or placers.
//
// Units are the places work runs or data lives: host memory, CPU cores (hardware PUs, by hwloc
// logical index), a GPU (its CUDA ordinal). Each queue runs on one unit: for CPU cores, a thread
// pinned to the unit's first PU that, when the unit spans k cores, runs each kernel in k parts
// with k - 1 helpers pinned to the next PUs (backend/cpu/core_team.hpp); a CUDA stream for a
// GPU.
#pragma once

#include <string>
#include <vector>

#include "sim/engine/task_graph.hpp"

namespace placesim::backend {

enum class Precision { F32, F16, BF16 };  // element type of a GEMM's operands

enum class WorkKind {
  None,    // nothing to execute (an empty task, a Launch, a zero-byte transfer)
  Gemm,    // C[m x n] = A[m x k] * B[k x n]
  Stream,  // read bytes/2 and write bytes/2 (a memory-bound op)
  Spin,    // busy for `seconds` (an op known only by its duration)
  Copy,    // `bytes` from unit `src`'s memory to unit `dst`'s memory
  Dha,     // a kernel on `unit` reading `bytes` of host memory in place
};
const char* to_string(WorkKind k);

struct Work {
  WorkKind kind = WorkKind::None;
  long m = 0, n = 0, k = 0;        // Gemm
  Precision precision = Precision::F32;
  double bytes = 0;                // Stream, Copy, Dha
  double seconds = 0;              // Spin
  int src = -1, dst = -1;          // Copy: units
  bool pageable = false;           // Copy from or to host memory: pageable (else pinned) buffers
};

struct Unit {
  enum class Kind { Host, CpuCore, Gpu } kind = Kind::Host;
  int index = 0;        // Host: NUMA node; CpuCore: first PU's logical index; Gpu: CUDA ordinal
  std::string id;       // the topology device it stands for, for messages
  int cores = 1;        // CpuCore: PUs index .. index + cores - 1 run each kernel together
};

struct Workload {
  std::vector<Unit> units;
  std::vector<Work> tasks;      // per TaskId
  std::vector<int> queue_unit;  // per QueueId: the unit whose thread or stream runs the queue
};

// n empty tasks (no kernel), each depending on the one before it, dealt in turn to `queues`
// queues on cores 0 and 1: what the backend costs per task (calibrate, bench).
struct EmptyChain {
  engine::TaskGraph graph;
  Workload workload;
};
EmptyChain empty_chain(int n, int queues);

// n empty ops on core 0, each dispatched by a host thread (queue `runtime.dispatch0`, an empty
// task) that waits for the op to end before dispatching the next: a CPU op under a runtime
// (docs/execution.md, "The runtime"). What the backend costs per op there (calibrate).
EmptyChain dispatched_chain(int n);

}  // namespace placesim::backend
