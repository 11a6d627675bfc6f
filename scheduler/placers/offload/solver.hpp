// ScheInfer's slice-rate solver (ScheInfer, section IV), a pure module: no graph, no plan.
//
// The weights of every GEMM of an MLP or MoE block are sliced by rates that sum to 1: CC (kept
// and computed on the CPU), CG (kept on the CPU, copied to the GPU and computed there) and GG
// (kept and computed on the GPU). Four streams run side by side: kernel launches, host-to-GPU
// copies, GPU compute, CPU compute.
//
//   Eq. 3   t = alpha + n * beta for each of GPU GEMM, CPU GEMM and the copy; t_Launch constant.
//   Eq. 4   per GEMM (n = n_GEMM multiply-adds, n_W weight bytes; sgn(x) = 1 for x > 0, else 0):
//             t_L   = [2 sgn(r_CG) + sgn(r_GG)] t_Launch
//             t_C2G = sgn(r_CG) alpha_C2G + r_CG n_W beta_C2G
//             t_G   = [sgn(r_CG) + sgn(r_GG)] alpha_G + (r_CG + r_GG) n beta_G
//             t_C   = sgn(r_CC) alpha_C + r_CC n beta_C
//           (Eq. 4 prints alpha_C2G without sgn; Eq. 10-12 charge it as sgn(r_CG) alpha_C2G,
//           and an empty CG slice has nothing to copy, so it is charged only when r_CG > 0.)
//   Eq. 5   tau_L^i = tau_L^{i-1} + t_L, tau_C2G^i = max(tau_L^i, tau_C2G^{i-1}) + t_C2G,
//           tau_G^i = max(tau_C2G^i, tau_G^{i-1}) + t_G, tau_C^i = tau_C^{i-1} + t_C, from 0
//           (tau_L^0: Block::launch_before, 0 as in the paper); t_fin = max(tau_G^{n_l}, tau_C^{n_l}).
//   Eq. 6-13  r_GG fixed, r_CC = 1 - r_GG - r_CG: the best r_CG of the edge points.
//   Eq. 14  r_GG per layer from {i / n_G}, greedily by time saved per GPU byte.
//   Eq. 15  the prompt phase: n_g of the T tokens move from the CPU (CC) to the GPU (CG').
//
// Why the edge points suffice. With r_GG fixed and 0 < r_CG < 1 - r_GG, t_L is constant and
// t_C2G, t_G grow linearly in r_CG, so tau_G is the largest of the pipeline paths of Eq. 5 (each
// a line of slope >= 0): nondecreasing. tau_C falls linearly. So t_fin = max(tau_G, tau_C) is
// least where they cross (or at an end of the interval); at the ends the sgn terms drop a cost
// (r_CG = 0: no copy, no CG launch or alpha; r_CC = 0: no alpha_C), so the ends themselves are
// never worse than the open interval's limits there. The paper's kinks (t_L = t_C2G, t_G =
// t_C2G, t_L = t_G) are kept as candidates, as Eq. 13 lists them; by this argument one can win
// only by coinciding with the crossing. The crossing is exact for unequal GEMMs too (MoE
// experts with different token loads): it is the least crossing of tau_C with any path line.
// All fits and t_Launch must be >= 0, as Table I's are: the argument needs it.
#pragma once

#include <string>
#include <vector>

namespace placesim::scheduler::scheinfer {

struct Fit { double alpha = 0, beta = 0; };  // t = alpha + n * beta (Eq. 3)

struct Hardware {
  Fit gpu;            // GPU GEMM: n = multiply-adds T*M*H
  Fit cpu;            // CPU GEMM (beta already scaled to the thread count by the caller)
  Fit c2g;            // host-to-GPU copy: n = bytes
  double launch = 0;  // t_Launch, one kernel or copy launch
};

struct Gemm {                 // one GEMM of a block, for all the tokens the block processes
  double work = 0;            // n_GEMM = T * M * H multiply-adds
  double weight_bytes = 0;    // n_W
};

// A block's GEMMs in stream order, i = 1..n_l of Eq. 5. `launch_before`: the launch stream's
// time already taken when the block's first launch is issued, tau_L^0 (0 in Eq. 5, which prices
// the FFN block alone; the layer's attention, norms and adds launch on the same stream).
struct Block {
  std::vector<Gemm> gemms;
  double launch_before = 0;
};

struct Rates { double cc = 1, cg = 0, gg = 0; };  // each in [0, 1], summing to 1 (within 1e-9)

// Eq. 4 per GEMM and Eq. 5's recurrence over the block: the end of each stream, and
// fin = max(gpu, cpu). An empty block ends at 0.
struct StreamEnds { double launch = 0, copy = 0, gpu = 0, cpu = 0, fin = 0; };
StreamEnds block_time(const Hardware&, const Block&, const Rates&);

// Eq. 6-13: the r_CG in [0, 1 - r_gg] of least t_fin (ties: the smaller r_CG; at one r_CG, the
// first name of the list below). Candidates, each evaluated by block_time: "r_CG = 0",
// "r_CG = 1 - r_GG", the kinks "t_L = t_C2G", "t_G = t_C2G", "t_L = t_G" (of each GEMM), and
// "tau_G = tau_C". `edge` names the winner.
struct CgSolution { double r_cg = 0, t_fin = 0; std::string edge; };
CgSolution solve_cg(const Hardware&, const Block&, double r_gg);

// Eq. 14: r_GG per layer from {i / n_G}, each layer's r_CG re-solved by solve_cg. The bytes of a
// layer's GG slice are r_GG times the layer's weight bytes (every layer needs some); their sum
// stays within budget_bytes (a step over it by rounding alone, 1e-12 of the budget, still fits).
// Greedy: from r_GG = 0 everywhere, repeatedly take the step (layer j, r_GG from v to v' > v)
// of largest importance (t*(v) - t*(v')) / ((v' - v) n_m) that fits (ties: the lower layer,
// then the smaller v'); it stops when none fits or none saves time (a step that makes the model
// slower is never worth GPU memory: "higher values do not necessarily yield better performance").
// The greedy can lose to putting whole layers on the GPU (a knapsack: see assign_gg.cpp), so the
// best whole-layer assignment (r_GG in {0, 1}) is also found, and the one of less t_total is
// returned (ties: the greedy); `source` says which.
struct LayerRates { Rates rates; double t_fin = 0; std::string edge; };
struct GgAssignment {
  std::vector<LayerRates> layers;
  double bytes = 0;    // GPU bytes of the GG slices of all layers
  double t_total = 0;  // sum of the layers' t_fin
  std::string source;  // "greedy (Eq. 14)" or "whole layers"
};
GgAssignment assign_gg(const Hardware&, const std::vector<Block>& layers, double budget_bytes, int n_G);

// Eq. 15: the prompt phase's token split, rates fixed (from the generation phase). `block` is the
// prompt block (its work is for all T tokens, so a token's share of a GEMM is work / T). n_g of
// the T tokens that the CC slice would compute on the CPU run on the GPU with CG' instead: CC's
// weights copied to the GPU as a second copy per GEMM, with its own copy and kernel launch. Our
// reading of Eq. 15 (its copy term is garbled), with s = sgn(r_CC n_g):
//   t_L'   = [2 sgn(r_CG) + 2 s + sgn(r_GG)] t_Launch
//   t_C2G' = [sgn(r_CG) + s] alpha_C2G + (r_CG + r_CC s) n_W beta_C2G
//   t_G'   = [sgn(r_CG) + sgn(r_GG) + s] alpha_G + [T (r_CG + r_GG) + n_g r_CC] (n / T) beta_G
//   t_C'   = sgn(r_CC (T - n_g)) alpha_C + (T - n_g) r_CC (n / T) beta_C
// With n_g = 0 it is block_time, bit for bit. T >= 1, n_g in [0, T].
StreamEnds prompt_block_time(const Hardware&, const Block&, const Rates&, int n_g, int T);

// The integer n_g in [0, T] of least t_fin (ties: the smaller n_g). As for r_CG, tau_G is
// nondecreasing and tau_C decreasing in n_g for 0 < n_g < T, so the candidates "n_g = 0",
// "n_g = T" and the integers either side of the crossing, "tau_G = tau_C", suffice.
struct PromptSolution { int n_g = 0; double t_fin = 0; std::string edge; };
PromptSolution solve_tokens(const Hardware&, const Block&, const Rates&, int T);

}  // namespace placesim::scheduler::scheinfer
