// What a plan's transfers mean on a topology, and the rules a plan must follow beyond naming
// things that exist. Each check returns "" when the plan keeps the rule, else a message saying
// what is wrong: parse_plan adds the file location, lower() throws it as an InputError (so plans
// built by placers are held to the same rules as plans read from files).
#pragma once

#include <string>

#include "hw/topology.hpp"
#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/plan/names.hpp"

namespace placesim::scheduler {

// The host memory a parameter delivered to `device` comes from: the plan's `source`, else the one
// nearest the device (-1 when it has none). A parallel transmission's two legs share it.
int param_source(const Plan& plan, const hw::Topology& topo, int param, int device);

// Source and destination devices of a transfer task (Deliver, Stage, Forward).
struct Ends {
  int src = -1, dst = -1;
};
Ends transfer_ends(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const PlanItem& it);

// The copy engine a transfer uses: an H2D engine of the destination GPU when the data comes from
// host memory or a CPU; a D2H engine of the source GPU when it goes there; none (Kind::Other)
// between GPUs or when no GPU is involved. It is engine k when the transfer sits on that engine's
// queue `<gpu>.h2d<k>` / `<gpu>.d2h<k>`, else the first engine.
QueueRole copy_engine(const hw::Topology& topo, Ends ends, const QueueRole& queue);

// A GPU queue names a stream or an engine the GPU has (Device::streams, h2d_engines, d2h_engines).
std::string check_queue(const hw::Topology& topo, const std::string& name);

// The time a launch item takes: the `launch` of the GPU whose kernel or copy it launches (a
// copy's destination when that is a GPU, else its source). Assumes check_item passed.
double launch_seconds(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const PlanItem& it);

// A task fits its queue: a compute stream runs ops placed on its GPU; an engine queue carries
// copies that engine serves; a launch sits on a host queue (no GPU's or core's) and launches a
// GPU kernel or a copy to or from a GPU; a sync sits on a host queue. Deliveries of a parameter match how the plan says it
// travels. `role`: queue_role(topo, queue), read once per queue by the caller.
std::string check_item(const Plan& plan, const models::Graph& g, const hw::Topology& topo, const std::string& queue,
                       const QueueRole& role, const PlanItem& it);

// The delivery options of `param` to `device` are consistent; `field` names the option at fault
// ("" for the entry as a whole), so a file error can point at it.
struct OptionProblem {
  std::string message;
  std::string field;
};
OptionProblem check_delivery(const Plan& plan, const models::Graph& g, const hw::Topology& topo, int param, int device,
                             const ParamDelivery& d);

// The most tasks one lowering may make. A task costs about 500 bytes while simulated
// (docs/engine-scale.md), so this is about 20 GB: a 4096-rank ring all-reduce (33.5 million
// tasks) fits, and a collective of a billion chunks is an error and not an allocation that runs
// until the kernel kills the process.
constexpr double kMaxLoweredTasks = 4e7;
// About how many tasks `c` lowers into at `fidelity`. Flow: each of its n ranks sends up to
// 2 (n - 1) steps of `chunks` pieces. Link: one per link direction its flows cross, a few per
// rank's route (counted as 8 n). Analytic and ideal: one per rank. (Every fidelity but analytic
// builds the flows once on a graph of their own, which check_collective bounds.)
double collective_tasks(const PlanCollective& c, engine::Fidelity fidelity = engine::Fidelity::Flow);
// The plan lowers into at most kMaxLoweredTasks tasks at `fidelity` (an item is about one, a
// collective collective_tasks); "" when it does, else what is wrong.
std::string check_lowered_size(const Plan& plan, engine::Fidelity fidelity = engine::Fidelity::Flow);

// A collective is well formed: a group of one or more distinct compute devices; bytes > 0;
// chunks >= 1 and at most kMaxLoweredTasks tasks; no op both `after` and `before` it; and an algorithm that implements the
// operation with the options given (the engine's closed form is evaluated on the topology's
// routes, so a member pair without a route is caught here too). `field` names the key at fault:
// the option's own (`weights`, `groups`, `senders`) where the engine names it, else `algorithm`.
OptionProblem check_collective(const models::Graph& g, const hw::Topology& topo, const PlanCollective& c);

// The collectives' names: each given, unique, and no graph node's. Checked for all of them at
// once (a hash of the names, one pass over the graph), as a data-parallel plan on a thousand
// GPUs has tens of thousands of collectives over a sliced graph of a million nodes. `at` is set
// to the index of the collective at fault.
OptionProblem check_collective_names(const std::vector<PlanCollective>& cs, const models::Graph& g, size_t& at);

// A split is well formed: it splits an op (not a parameter, nor an op known only by explicit
// durations unless into replicas) along an axis its shape has (and an inner axis, another one or
// replicas), into one or more slices on compute devices with shares in (0, 1] whose products
// share * inner_share sum to 1 within 1e-9; replicas have share 1; with inner replicas, runs of
// c equal slices (inner share 1) whose shares sum to c (plan.hpp PlanSplit). `field` is "axis",
// "inner", "slices" or "".
OptionProblem check_split(const models::Graph& g, const hw::Topology& topo, int op, const PlanSplit& split);

// A plan that assigns ops to `threads` dispatch threads runs on a machine whose runtime
// dispatches and has that many (hw::Runtime).
std::string check_dispatch_threads(const hw::Topology& topo, std::size_t threads);

// A plan's core count for a CPU names a CPU and lies in [1, its cores].
std::string check_cpu_cores(const hw::Topology& topo, int device, int cores);

}  // namespace placesim::scheduler
