// The CUDA backend: runs a TaskGraph on this machine's GPUs for real, under the execution
// contract (docs/execution.md), and records the measured Trace with CUDA events.
//
//   * a non-blocking CUDA stream per queue, on its unit's GPU; a queue on a CPU core runs its
//     tasks as host functions (cudaLaunchHostFunc) on a stream of its own, so host work joins
//     the same event graph;
//   * a dependency is a cudaStreamWaitEvent on the producer's end event; tasks are enqueued from
//     one host thread in an order that respects every dependency and queue (a cycle is refused
//     before anything runs, naming a task on it);
//   * kernels: cuBLAS GEMM (cublasGemmEx, FP32/FP16/BF16 operands, FP32 accumulation) with the
//     op's M, N, K; a streaming kernel over the op's bytes; a busy kernel timed by the GPU's
//     global timer; copies with cudaMemcpyAsync from pinned (cudaMallocHost) or pageable host
//     buffers as the plan says, peer to peer (cudaMemcpyPeerAsync, peer access enabled where the
//     GPUs allow it); DHA as a kernel reading mapped (zero-copy) host memory;
//   * per task a start event (recorded once its waits are over) and an end event; times are
//     measured from an origin event per GPU;
//   * `warmup` unrecorded runs, then `repeats` recorded ones; the median-makespan run is kept;
//   * memory: device buffers above kMaxMemoryFraction of a GPU's free memory, or host buffers
//     above that fraction of the machine's memory, are refused (InputError) before the run;
//   * a watchdog: a run not finished after `watchdog_s` raises WatchdogError naming a task that
//     never finished (the GPU work cannot be cancelled; the process should exit).
// Collectives are not TaskGraph tasks (they lower to transfers), so no NCCL call is needed here.
#pragma once

#include <string>

#include "backend/backend.hpp"
#include "backend/workload.hpp"
#include "sim/engine/task_graph.hpp"
#include "sim/engine/trace.hpp"

namespace placesim::backend {

// "" when a GPU is usable; otherwise why not (no driver, no device), for messages and skips.
std::string cuda_unavailable_reason();

Measurement run_cuda(const engine::TaskGraph& g, const Workload& w, const BackendOptions& opts);

}  // namespace placesim::backend
