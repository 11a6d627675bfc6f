// The MILP of one submodel (sortinghat.md 3.3, Eq. 1-23), built from plain constants so that
// tests can feed it hand-made instances; one builder serves milp-sortinghat and efficientmip
// (ShInput::dha false: no DRAM subgraph 0, every slot runs without DHA).
//
// Indices: nodes v = 0..n-1 (ops and parameters), GPUs i = 0..k-1 (the paper's 1..k), slots
// j = 0..kq; GPU i holds slots iq+1 .. iq+q; slot j's GPU is (j-1)/q. With dha, slot 0 is DRAM
// (parameters read by direct host access) and slot j runs with DHA when j is odd (its
// position on the GPU, 1-based, is odd: Eq. 5, 22), without when even (Eq. 21).
//
// Changes from the paper (each keeps the equations' meaning, sortinghat_model.cpp says where):
//   * constants in seconds per node instead of size x speed: dt_s[w][i] = m_w T_{0,i} and
//     copy_s[v][i1][i2] = m_v T_{i1,i2}, so a route latency can be added per copy and the bytes
//     a copy moves need not equal the bytes it holds (mem[v], Eq. 11);
//   * z, EdgeIn and CopyIn are continuous in [0, 1]: at integral x their smallest feasible
//     values are 0 or 1 and larger ones only tighten rows, so the optimum is unchanged;
//   * one row per op edge (u, v) and GPU i: both on GPU i puts v in a slot not before u's
//     (a later slot of the same GPU cannot feed an earlier one: with positive times the
//     equations forbid it anyway; with zero times it would deadlock the executor);
//   * cuts that keep the optimum: TotalLatency >= the longest path in fastest op times, each op
//     after PrevSGFin and, when it reads parameters, after their first possible copy or in its
//     DHA time (ShStrength::release_floor, issue 15); symmetry breaking among interchangeable
//     GPUs (gpu_classes); and empty slots after full ones on a GPU alone on its bus;
//   * branching priorities: ops' x before parameters' (ShStrength::priorities, issue 15).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/milp/model.hpp"

namespace placesim::scheduler::sortinghat {

struct ShInput {
  int n = 0;                    // nodes
  std::vector<bool> is_param;   // per node
  std::vector<std::pair<int, int>> edges;  // (u, v): u feeds v
  int k = 1, q = 2;             // GPUs, slots per GPU (even when dha)
  bool dha = true;              // slot 0 and DHA slots (efficientmip: false)
  std::vector<std::vector<double>> p_gpu, p_dha;  // [v][i] seconds (ops; params ignored)
  std::vector<double> mem;      // [v] bytes held on a GPU (m_v in Eq. 11)
  std::vector<std::vector<double>> dt_s;              // [w][i] host -> GPU i copy, seconds
  std::vector<std::vector<std::vector<double>>> copy_s;  // [v][i1][i2] GPU -> GPU copy, seconds (0 on i1 == i2)
  std::vector<double> capacity;  // [i] M_i bytes; <= 0: unlimited
  std::vector<int> bus_of;      // [i] PCIe bus
  int buses = 1;
  std::vector<double> prev_m, prev_sg_fin;  // [i]
  std::vector<double> prev_dt_fin;          // [bus]
  std::vector<std::pair<int, int>> fixed;   // (v, i): v in GPU i's first slot (Eq. 3)
  // At most this many GPUs hold nodes, counting those in used_before (0: no limit). Not in
  // the paper: how a placer is told to use "at most N GPUs of its choice".
  int max_gpus = 0;
  std::vector<bool> used_before;            // [i]; empty: none

  int slots() const { return k * q + 1; }
  int gpu_of_slot(int j) const { return (j - 1) / q; }
  bool slot_dha(int j) const { return dha && ((j - 1) % q) % 2 == 0; }
  // Eq. 12-13: each bus copies in round robin over its GPUs' slots (first slots of every GPU on
  // the bus in GPU order, then the second slots, ...). dt_order[b] lists bus b's slots.
  std::vector<std::vector<int>> dt_order() const;
  // A big-M no smaller than any time of any schedule (everything serialised after the
  // previous submodel), so Eq. 15, 16, 19, 20 never cut a feasible schedule.
  double big_m() const;
};

// What issue 15 added to the model (results/sortinghat/model-strength.md: what it buys, and the
// additions measured and dropped). It keeps the optimum (tests/scheduler/placers/sortinghat/model_test.cpp); off,
// the model is the one before (bench/bench_sortinghat_model.cpp measures the difference).
struct ShStrength {
  bool release_floor = true;  // the latency floor waits for parameters' copies (or DHA)
  bool priorities = true;     // CBC branches on ops' x (in node order) before parameters'
};

struct ShVars {
  std::vector<std::vector<milp::VarId>> x;  // [v][j], index -1 where it does not exist
  std::vector<milp::VarId> sg_start, sg_fin, dt_start, dt_fin;  // [j], j >= 1
  std::vector<milp::VarId> node_fin;        // [v]
  milp::VarId total;
};

struct ShModel {
  milp::Model model;
  ShVars vars;
  std::vector<milp::VarId> used;  // [i] GPU i holds a node (max_gpus > 0 only)
  double scale = 1;  // model time units per second
};

// InputError-free: a malformed input is a bug (assertions). Eq. 1-23 as the file header says.
ShModel build_model(const ShInput& in, const ShStrength& strength = {});

// One solve's outcome in the input's terms.
struct ShSolution {
  std::vector<int> slot_of;                // [v]
  std::vector<double> sg_start, sg_fin, dt_start, dt_fin;  // [j] (index 0 unused)
  double total = 0;
};
ShSolution read_solution(const ShInput& in, const ShModel& m, const std::vector<double>& values);

// Interchangeable GPUs (equal in every constant, each alone on its bus, none fixed), in
// classes; build_model breaks their symmetry: node t sits on one of its class's first t + 1.
// GPUs that share a bus are not interchangeable: the round robin copies in GPU order.
std::vector<std::vector<int>> gpu_classes(const ShInput& in);
// The same schedule with each class's GPUs relabelled in order of the first node they hold,
// and empty slots moved last where the model requires it, so that it keeps both cuts.
std::vector<int> canonical(const ShInput& in, std::vector<int> slot_of);

// Warm start: the integer variables (x, used) of an assignment of nodes to slots (canonical).
std::vector<std::pair<milp::VarId, double>> warm_start(const ShInput& in, const ShModel& m, std::vector<int> slot_of);

// Memory Eq. 11's left side takes on GPU i under a solution (PrevM_i included).
double memory_used(const ShInput& in, const std::vector<int>& slot_of, int i);

}  // namespace placesim::scheduler::sortinghat
