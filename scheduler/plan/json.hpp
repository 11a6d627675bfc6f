// Plans as JSON, so a plan can be saved, inspected, edited and re-scored:
//
//   {"placer": "round-robin",
//    "devices": {"layer0.qkv": "gpu0", "layer1.qkv": "gpu1", ...},     // every op -> device id
//    "splits": {"fc1": {"axis": "cols",         // optional: ops split into slices (fc1#0, fc1#1)
//      "slices": [{"device": "gpu0", "share": 0.5}, {"device": "gpu1", "share": 0.5}]}},
//    "memory": "pageable",                      // optional: host buffers of parameter copies,
//                                               //   pinned (default) or pageable
//    "params": {                                // optional: how a parameter reaches a device
//      "layer0.w_qkv@gpu0": {"via": "dha"},     //   read by direct host access, not copied
//      "layer1.w_qkv@gpu0": {"via": "parallel", "neighbour": "gpu3", "fraction": 0.5},
//      "layer2.w_qkv@gpu1": {"from": "host1", "memory": "pinned"}},
//    "cpu_cores": {"cpu0": 4},                  // optional: cores a CPU's ops run on (default all)
//    "dispatch": [["layer0.qkv", ...], [...]],  // optional: per dispatch thread, its ops in order
//    "collectives": [                           // optional: collectives placed between ops
//      {"name": "ar0", "op": "all-reduce", "algorithm": "ring", "group": ["gpu0", "gpu1"],
//       "bytes": 1e8, "chunks": 4, "after": ["layer0.out"], "before": ["layer1.qkv"]}],
//    "queues": [{"name": "gpu0.compute", "tasks": ["layer0.qkv", ...]},  // op names
//               {"name": "gpu0.compute1", "tasks": [...]},                // a second stream
//               {"name": "gpu0.h2d", "tasks": ["layer1.w_qkv@gpu0"]},     // node@device deliveries
//               {"name": "gpu3.h2d", "tasks": ["layer1.w_qkv@gpu0/stage"]},
//               {"name": "gpu3->gpu0", "tasks": ["layer1.w_qkv@gpu0/forward"]},
//               {"name": "gpu0->gpu1", "tasks": ["layer0.out@gpu1"]},
//               {"name": "host.launch", "tasks": ["layer0.qkv/launch", "layer1.w_qkv@gpu0/launch"]}]}
//
// A `splits` entry, keyed by an op of the graph (slices.hpp has the rules):
//   axis       rows | cols | heads | tokens | batch: an axis of the op's shape (models/op_slice.hpp);
//              replicas: every slice is a whole copy of the op (any op, also one without a shape)
//   inner      optional, a 2D split: a second axis, along which each slice takes `inner_share`
//              (2D tensor parallelism: axis cols between groups, inner rows within a group), or
//              replicas: each part of the outer axis copied whole onto a run of slices (a
//              data-parallel replica's share of the batch on every GPU of its group)
//   slices     one or more {device, share, inner_share}: slice i is the op `OP#i` on that compute
//              device; shares in (0, 1] whose products share * inner_share sum to 1 (within
//              1e-9; inner replicas: runs of c equal slices, inner_share 1, the shares summing
//              to c); replicas take no share; devices may repeat (two cores' slices)
// A split op has no `devices` entry; its slices are named `OP#i` in queues, and a parameter it
// partitions (a row or column split's weight) `PARAM#i` in deliveries (`w#1@gpu1`). Collectives
// name either the slices or the split op (all its slices) in `after` and `before`; a collective
// after the producer's slices and before the consumer is how a plan joins them.
// A `params` entry, keyed `PARAM@DEVICE` (a device where some op reads the parameter), may say:
//   via        copy (default) | dha | parallel | resident. dha: every op on DEVICE that reads the parameter
//              reads its bytes over the route from host memory while it computes (a GPU only,
//              pinned memory only; the plan has no `PARAM@DEVICE` copy). parallel: the share
//              1 - fraction goes over DEVICE's own route (task `PARAM@DEVICE`), the share
//              `fraction` goes to `neighbour` (task `PARAM@DEVICE/stage`, from the same host
//              memory; with no stage task, taken from the neighbour's own copy `PARAM@NEIGHBOUR`,
//              which must be via copy and not evicted) and then peer to peer to DEVICE (task
//              `PARAM@DEVICE/forward`); the ops wait for both parts. resident: on DEVICE from
//              the start (a GPU's memory, or a CPU's host memory), no copy, held to the end
//              (`weights: resident` for this parameter alone); also a parameter no op reads
//              (an idle expert's weights), which is then simply held there.
//   evict      copy or parallel only, default false: free the copy on DEVICE once its last
//              reader there has ended (a weight streamed through the GPU), not at the end.
//   dha_readers  copy or parallel only: ops on DEVICE that read the parameter by direct host
//              access all the same and wait for no copy (readers before it arrives: a tied
//              embedding table looked up at the start, copied for the head at the end).
//   neighbour  parallel only: another GPU with routes from the host memory and to DEVICE.
//   fraction   parallel only: in (0, 1).
//   from       the host memory holding the parameter (default: the one nearest DEVICE); a far
//              NUMA node's memory simply has a longer route.
//   memory     pinned | pageable: overrides the plan's `memory` for this parameter.
// `cpu_cores: {CPU: k}`: the plan's ops on CPU run on k of its cores, 1 <= k <= cores; each op
// then takes the cost model's duration for k busy cores (models::on_cores: k cores' share of
// the peak, slowed by the device's contention curve at k).
// `dispatch: [[op, ...], ...]`: on a machine whose runtime dispatches ops from host threads
// (docs/execution.md, "The runtime"), thread t dispatches the ops of list t in that order; every
// op once, at most the runtime's dispatch_threads lists. Absent: one thread, in the default
// order (scheduler/dispatch_order.hpp).
// A `collectives` entry (engine/collectives/collective.hpp says what each operation moves):
//   name       unique, and no node's name; prefixes its tasks and queues (`ar0.s0.c0.0>1`)
//   op         all-reduce | all-gather | reduce-scatter | broadcast | all-to-all | point-to-point
//   algorithm  ring (default) | tree | direct | hierarchical | proportional | flexreduce
//              (placesim list collectives); hierarchical and flexreduce take each member's node
//              from the topology
//   group      distinct compute devices, in rank order (rank 0: a broadcast's root); a group of
//              one moves nothing and only orders its `after` ops before its `before` ops
//   bytes      S, a number or "64MiB"
//   chunks     pipelining pieces (default 1)
//   weights    proportional: each rank's capability, > 0
//   groups     proportional all-gather only (an error elsewhere): each rank's group, a whole
//              number 0..k-1 with every group non-empty ([0, 0, 1, 1, 1]: ranks 0-1 and 2-4). The
//              groups form a ring in index order and all-gather among themselves (collective.hpp)
//   senders    point-to-point: the first `senders` ranks send (default 1)
//   after      ops it waits for: a rank waits for those on its device and for those placed off
//              the group
//   before     ops that wait for it: an op on a member's device for that rank's end, an op off
//              the group for every rank's
// The scenario's `collectives: {fidelity: flow|analytic}` (scheduler::Problem::collectives)
// picks per-rank flows or the alpha-beta closed form for every collective of every plan.
// Queue names of GPUs bind queues to streams and copy engines (scheduler/plan/names.hpp); a plan
// may use only as many as the device has. A launch (`OP/launch` for an op's kernel,
// `NODE@DEVICE/launch` for a copy) goes on a queue that is no GPU's or core's: it takes the
// GPU's `launch` time there, the kernel or copy waits for it, and a launched kernel's own time
// leaves out the launch the cost model adds (explicit durations stay as given); a sync (`OP/sync`)
// on such a queue holds the items after it until OP has ended. Names are
// resolved against the graph and topology, and every error has its file:line:column.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "hw/topology.hpp"
#include "models/graph.hpp"
#include "scheduler/plan/plan.hpp"
#include "sim/core/json_doc.hpp"

namespace placesim::scheduler {

// Written in time linear in the plan's size; plan_json is the document plan_to_json prints.
nlohmann::ordered_json plan_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo);
std::string plan_to_json(const Plan& plan, const models::Graph& g, const hw::Topology& topo);
// `fidelity`: the one its collectives will be simulated at, for the cap on the tasks they lower into.
Plan parse_plan(const Json& doc, const models::Graph& g, const hw::Topology& topo,
                engine::Fidelity fidelity = engine::Fidelity::Flow);
Plan load_plan_json(const std::string& path, const models::Graph& g, const hw::Topology& topo,
                    engine::Fidelity fidelity = engine::Fidelity::Flow);

}  // namespace placesim::scheduler
