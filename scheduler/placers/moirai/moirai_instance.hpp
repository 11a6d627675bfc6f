// The numbers one MOIRAI MILP is built from (moirai.md III-D), and the model's semantics as a
// schedule evaluator.
//
// Tasks are the nodes N of the coarsened DAG G (Eq. 2): a GCOF group of ops (fusion.hpp) or one
// op. Flows are the added nodes of the augmented DAG G-bar (Eq. 3): one per pair of tasks joined
// by graph edges, with the transmission time p^comm over every ordered pair of device slots.
// A task's duration on a device is the sum of its members' durations, as the engine runs them
// (the members are placed together, not fused into one kernel), so the model and the engine
// agree on compute.
//
// An instance is one window of the placement (milp_moirai.cpp): its free tasks, plus the fixed
// tasks of earlier windows that feed them (placed, with known start), and what those windows
// left behind: each device's and each channel's available time, the memory left, and which
// parameters are already resident where.
//
// evaluate() is the model's semantics for a given assignment and order: every device runs its
// tasks, every channel k'->k'' its flows, in one global order that respects precedence, each as
// early as its inputs and its predecessor allow (the longest path of the resulting DAG). Flows
// of one producer over one channel are one transfer in the engine (scheduler/lower/lower.hpp: one delivery per
// producer and destination device), so the model does not serialise them against each other
// (congestion pairs exclude them) and evaluate() sends them together, for the longest of their
// times.
#pragma once

#include <vector>

#include "models/transform/fusion.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler::moirai {

// The tasks: GCOF groups (coarsen) or single ops, on the original graph's indices.
struct Coarse {
  std::vector<std::vector<int>> members;  // per task: its ops, in topological order
  std::vector<int> task_of;               // per graph node: its task, -1 for parameters
  std::vector<int> order;                 // tasks in a topological order
  models::Graph graph;                    // the coarsened graph (the original one without coarsening)
  std::vector<int> node_of;               // per task: its node in `graph`
};
// GCOF by `rules` (none: every op its own task). InputError when the members of a group share
// no device that can run them all.
Coarse coarse_tasks(const Problem& p, const std::vector<models::FusionRule>& rules);

struct Flow {
  int src = -1, dst = -1;                 // instance tasks, src < dst
  std::vector<std::vector<double>> time;  // [a][b]: seconds from slot a to slot b; +inf: no route
};

struct ParamUse {
  double bytes = 0;
  std::vector<int> readers;    // free tasks that read it
  std::vector<bool> resident;  // per slot: already held there by an earlier window
};

struct Instance {
  int slots = 0;
  std::vector<int> task;                  // per instance task: its Coarse task
  std::vector<std::vector<double>> dur;   // [task][slot]; models::kCannotRun where it cannot run
  std::vector<int> fixed_slot;            // per task: -1 free, else placed by an earlier window
  std::vector<double> fixed_start;        // per task (fixed ones)
  std::vector<double> own_bytes;          // per task: its members' outputs and states
  std::vector<ParamUse> params;
  std::vector<double> capacity;           // per slot: bytes left, +inf: unlimited
  std::vector<double> device_avail;       // per slot
  std::vector<std::vector<double>> channel_avail;  // [a][b]
  std::vector<Flow> flows;                // sorted by (src, dst)

  int tasks() const { return static_cast<int>(dur.size()); }
  bool is_free(int t) const { return fixed_slot[t] < 0; }
  // reach[i][j]: a path of flows leads from task i to task j (i < j), i.e. j cannot start
  // before i ends.
  std::vector<std::vector<bool>> reach() const;
};

// What earlier windows decided, per Coarse task (slot -1: not placed yet).
struct Placed {
  std::vector<int> slot;
  std::vector<double> start;
  std::vector<double> device_avail;
  std::vector<std::vector<double>> channel_avail;
  std::vector<double> mem_used;
  std::vector<std::vector<bool>> param_resident;  // [graph node][slot]
  Placed(const Problem& p, const Coarse& c, int slots);
};

// The instance of `window` (Coarse tasks, in topological order) on `devices` (topology
// indices; slot k is devices[k]).
Instance make_instance(const Problem& p, const Coarse& c, const std::vector<int>& devices,
                       const std::vector<int>& window, const Placed& placed);

struct Timed {
  std::vector<double> start, finish;            // per task
  std::vector<double> flow_start, flow_finish;  // per flow
  double makespan = 0;  // latest finish of a free task, or a device's available time if later
};

// Free tasks and flows (flow q is node tasks() + q) in one order: precedence first, then the
// smallest key (ties: the lower node).
std::vector<int> global_order(const Instance& in, const std::vector<double>& task_key,
                              const std::vector<double>& flow_key);

// The schedule of the model (header) with `slot_of` per task (fixed tasks: their slot) and the
// sequence global_order(keys) gives every device and channel.
Timed evaluate(const Instance& in, const std::vector<int>& slot_of, const std::vector<double>& task_key,
               const std::vector<double>& flow_key);

}  // namespace placesim::scheduler::moirai
