// The plan of a one-CPU, one-GPU design, shared by scheinfer, llamacpp-offload and fiddler: every
// op whole on the CPU or the GPU, or an FFN expert's weights sliced three ways (ScheInfer section
// III-B):
//   CC  computed on the CPU from host memory (a resident parameter of the CPU);
//   CG  copied to the GPU before each use and evicted after it (a streamed weight), computed there;
//   GG  resident on the GPU, computed there;
// and, in a prompt, CG': the CC columns computed on the GPU for `gpu_tokens` of the tokens, their
// weights copied like CG's (ScheInfer's n_g, Eq. 15), the CPU keeping the rest of the tokens.
//
// An expert's column GEMMs (gate, up; fc1) split by columns, the elementwise ops between them
// with those columns, its row GEMM (down; fc2) by rows, in the slice order CC, CG', CG, GG (the
// zero-share ones left out); an all-reduce between the CPU and the GPU (a group of one when only
// the GPU computes) adds the row slices' partial sums before the ops that read the expert's
// output. Ops left whole keep their parameters resident where they run (host memory for the CPU).
//
// Queues: the CPU's ops on `<cpu>.compute` (ScheInfer's Stream-A), the GPU's kernels on
// `<gpu>.compute` (Stream-D), the weight copies on `<gpu>.h2d` (Stream-C) and, where the GPU
// declares a launch cost, the host's launches on `host.launch` (Stream-B): every GPU kernel in
// the GPU's order, and after the kernels of an op's slices the copies of their weights, so a copy
// waits for its GEMM's launches as Eq. 5 has it (tau_C2G^i = max(tau_L^i, tau_C2G^{i-1}) + t_C2G),
// and with the CG kernel before the GG one on the GPU both wait for the copy (tau_G^i =
// max(tau_C2G^i, tau_G^{i-1}) + t_G). Activations moved between the CPU and the GPU are not
// launched: Eq. 5 leaves them out, and the engine still prices their transfers.
#pragma once

#include <string>
#include <vector>

#include "scheduler/plan/plan.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler::offload {

// One expert of an FFN block (a dense MLP is one expert), by op nodes of the problem's graph.
struct Expert {
  std::vector<int> col_gemms;  // read the whole input, split by columns (gate, up; fc1)
  std::vector<int> between;    // elementwise ops on the column GEMMs' outputs (the activation)
  int row_gemm = -1;           // reads them, split by rows (down; fc2)
};

// How an expert's weights are sliced: shares that sum to 1, and in a prompt the fraction of the
// tokens the CC columns compute on the GPU (CG'), 0 outside a prompt.
struct Slicing {
  double cc = 1, cg = 0, gg = 0;
  double gpu_tokens = 0;
};

struct Design {
  int cpu = -1, gpu = -1;
  int threads = 0;              // cores the CPU's ops run on; 0: all
  // Per node of the problem's graph: the device of each op left whole, and of each parameter no
  // op reads (an idle expert's weights: held there, resident, with weights: host).
  std::vector<int> device_of;
  std::vector<std::pair<Expert, Slicing>> sliced;  // experts whose weights are sliced
};

// The plan; InputError for slicing shares outside [0, 1], not summing to 1 (within 1e-9), or a
// token fraction outside [0, 1].
Plan build_cpu_gpu_plan(const Problem& p, std::string placer, const Design& d);

// The bytes of the parameters `op` reads.
double param_bytes(const models::Graph& g, int op);

}  // namespace placesim::scheduler::offload
