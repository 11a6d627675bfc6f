// From a lowered plan to what a real backend executes for each task (backend/workload.hpp):
// the bridge between the model graph, which the backends never see, and the TaskGraph.
//
// Units: every host memory (its NUMA node), every GPU (CUDA ordinals in topology order), and
// the cores of every CPU device (PUs dealt out in topology order, `cores` each).
// Queues: a compute queue runs on its op's device; a delivery queue on the device it delivers
// to (on the device it comes from when that one is host memory's reader, i.e. when the
// destination does not compute). On a CPU, as docs/execution.md, "CPU cores", has it:
//   * a queue `<cpu>.core<j>` runs on core j alone: one thread, single-threaded kernels;
//   * any other queue holding ops runs on cores 0..k-1 together, k the plan's core count for
//     the CPU (plan.cpu_cores; all its cores by default): each kernel split k ways;
//   * any other queue (copies only) on core 0, one thread.
// Kernels, per compute task:
//   * an op given by explicit durations: a busy wait of its duration on k cores (Spin), d_k
//     from the cost model; on `<cpu>.core<j>`, k * d_k (one of k busy cores does its work
//     alone: W = k * d_k = d_1 * w_k);
//   * an op whose shape is a GEMM with a weight (a linear layer, or a slice of one: the plan's
//     sliced graph, scheduler/plan/slices.hpp): that GEMM, M = batch*m, N = n, K = k, each
//     rounded and at least 1;
//   * any other `matmul`: a GEMM whose M, N, K come from its work (transformer_ops.cpp):
//       out = output_bytes / e = M*N,  K = flops / (2 * out),
//       (bytes - output_bytes) / e = M*K + K*N  =>  M + N = that / K,
//     M and N the roots of x^2 - (M+N) x + M*N (M the smaller: the tokens); a square M = N
//     when the roots are not real; e = the model dtype's element size;
//   * any other op: the kernel of its roofline bound on its device (on k cores): a GEMM of the
//     same FLOPs (a cube) when flops/peak >= bytes/bw (bw: models::RooflineCost::memory_rate,
//     the cache's when the bytes fit in it), else a streaming loop over its bytes;
//   * a Dha task: a DHA kernel over the bytes it reads.
// Deliveries are copies of the lowered task's bytes from the source's unit to the destination's,
// pageable when the plan says so; one with only a fixed time waits that time (Spin); one of
// zero bytes does nothing.
#pragma once

#include "backend/workload.hpp"
#include "scheduler/lower/lower.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::explore {

// `low`: lower(p, plan). A plan with splits runs its sliced graph.
backend::Workload make_workload(const scheduler::Problem& p, const scheduler::Plan& plan,
                                const scheduler::Lowered& low);

// GEMM dimensions of a matmul node, as above (each >= 1).
struct GemmShape {
  long m = 1, n = 1, k = 1;
};
GemmShape matmul_shape(const models::Node& op, double element_bytes);

// j for a queue named `<cpu>.core<j>` of CPU `cpu` (InputError when j is not one of its cores),
// -1 for any other name.
int cpu_core_queue(const hw::Topology& topo, int cpu, const std::string& queue);

}  // namespace placesim::explore
