// MOIRAI's MILP (moirai.md III-D, Eq. 4-8) for one Instance, its warm start, and its solution
// read back. Variables (i, j tasks; q, r flows; k, a, b device slots; w parameters):
//
//   x_i_k  binary   task i on slot k (4c: sum_k x_i_k = 1); fixed tasks: the one of their slot, = 1
//   S_i C_i         start, completion: C_i = S_i + sum_k p_ik x_i_k                       (4b)
//   Sf_q Cf_q       start, completion of flow q = (i, j): Sf_q >= C_i, S_j >= Cf_q          (4a)
//   z_q    [0,1]    q crosses devices: z <= 2 - x_ik - x_jk, z >= x_ik - x_jk, z >= x_jk - x_ik (7)
//   u_q_a_b [0,1]   q uses channel a -> b: u >= x_ia + x_jb - 1, sum_{a != b} u = z,
//                   Cf_q = Sf_q + sum u p^comm_qab                                          (7)
//   y_w_k  [0,1]    parameter w held on k: y >= x_ik for its readers;
//                   sum_i m_i x_ik + sum_w bytes_w y_wk <= Mem_k                           (5)
//   same_i_j [0,1], d_i_j binary, for tasks i, j unordered by reachability (one pair of
//                   variables per pair, not per device): same >= x_ik + x_jk - 1 for every k;
//                   S_j >= C_i - M (1 - d) - M (1 - same), S_i >= C_j - M d - M (1 - same)   (6)
//   cs_q_r [0,1], e_q_r binary, for flows q, r of different producers unordered by reachability:
//                   cs >= u_qab + u_rab - 1 for every channel a -> b; the same two rows    (8)
//   T               T >= C_i, T >= every device's available time (earlier windows); minimise T (4)
//
// z, u, y, same, cs are continuous: at integral x the rows force them to 0 or 1. The paper's Eq.
// 8 states contention per device uplink/downlink with big-M terms per device k; here two flows
// conflict when they use the same channel a -> b, the queue a transfer runs on in the plan
// (milp_moirai.cpp), with one same-channel variable per pair.
//
// Pairs left out of (6) and (8), as no solution with T <= M needs them: pairs a path orders;
// flows of one producer (one transfer in the engine; moirai_instance.hpp); pairs whose windows
// [earliest start, M - least time after] cannot overlap (they keep that order anyway); and two
// items that take no time on any device or channel.
//
// M is a proven upper bound on the optimal makespan (the caller's: a feasible schedule of the
// model), also T's upper bound: every time of an optimal solution lies in [0, M]. Lower-bound
// cuts: S_i >= its earliest start with every task at its fastest and free same-device
// transfers (critical path), T >= the largest of those completions and >= (sum of fastest
// durations + sum of device available times) / slots, T >= avail_k + sum_i p_ik x_ik per slot.
// Symmetry: for each class of identical slots s_1 < ... < s_m (same durations, capacity and
// transfer times to every other slot, in an instance without fixed tasks), a task may use s_m
// only when an earlier task uses s_{m-1}: any solution relabels to one that does.
// Times are scaled so that M = 100 model units, keeping CBC's absolute tolerances relative.
#pragma once

#include <utility>
#include <vector>

#include "scheduler/milp/milp.hpp"
#include "scheduler/placers/moirai/moirai_instance.hpp"

namespace placesim::scheduler::moirai {

struct Built {
  milp::Model model;
  double unit = 1;  // seconds per model time unit
  std::vector<std::vector<milp::VarId>> x;   // [task][slot]; index -1: cannot run there
  std::vector<milp::VarId> S, C, fS, fC;
  struct Pair {
    int a = -1, b = -1;  // tasks (or flows), a < b
    milp::VarId before;  // 1: a before b
  };
  std::vector<Pair> task_pairs, flow_pairs;
  std::vector<std::vector<int>> classes;  // identical slots, symmetry broken (each of size >= 2)
  milp::VarId T;
};

// `upper_bound_s`: a proven upper bound on the optimum (> 0). memory_only: (4c) and (5) alone,
// to tell which device's memory makes an instance infeasible.
Built build_model(const Instance& in, double upper_bound_s, bool memory_only = false);

// `slot_of` relabelled within each symmetry class by first use, so it keeps the symmetry rows.
std::vector<int> canonical(const Built& b, const Instance& in, std::vector<int> slot_of);

// The integer variables of the schedule `t` (evaluate() of canonical `slot_of`): CBC fixes
// them and solves the LP for the rest.
std::vector<std::pair<milp::VarId, double>> warm_start(const Built& b, const Instance& in, const std::vector<int>& slot_of,
                                                       const Timed& t);

struct Solution {
  std::vector<int> slot_of;  // per task
  std::vector<double> task_key, flow_key;  // the MILP's start times, seconds
};
Solution read_solution(const Built& b, const Instance& in, const milp::Result& r);

}  // namespace placesim::scheduler::moirai
