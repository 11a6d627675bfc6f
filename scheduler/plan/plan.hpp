// A Plan: the decisions of a placer, and nothing else (docs/formats.md, "Plans").
//
// * every op node sits on one compute device;
// * every task sits on a named queue, in the order the plan gives. A task is the compute of an
//   op (`op`), the delivery of a node's data to a device (`node@device`: for a parameter, its
//   copy from host memory; for an op, its output moved from the op's device), one of the two
//   legs of a parameter's parallel transmission (`param@device/stage`: host memory to the
//   neighbour GPU; `param@device/forward`: neighbour to the device, peer to peer), or the host's
//   launch of a GPU kernel or copy (`op/launch`, `node@device/launch`): where a plan launches a
//   kernel from a host queue, the launch costs the GPU's `launch` there and the kernel waits for
//   it (its own duration then leaves the launch out), so a host that launches faster than the
//   GPU computes overlaps the two, and one that launches slower starves it (ScheInfer's Stream-B);
//   or the host's wait for an op to end (`op/sync`), which bounds how far its launches run ahead;
// * how each parameter reaches each device that reads it (weights: host): copied (the default),
//   read by direct host access while the op computes, split between the device's own route
//   and a neighbour GPU's, or resident there from the start (ScheInfer's GG slices); from which
//   host memory; from pinned or pageable host buffers; whether a copy is evicted after its last
//   reader there (a streamed weight: ScheInfer's CG slices) or kept to the end;
// * collectives among groups of devices (all-reduce, all-gather, ...), each after some ops and
//   before others (lowered by the engine's collectives library into per-rank steps);
// * how many cores of each CPU its ops run on (default: all);
// * on a machine whose runtime dispatches ops from host threads (hw::Runtime), which thread
//   dispatches each op and in what order (default: one thread, in the order scheduler/lower/lower.hpp states);
// * which ops are split into slices along one axis of their shape, each slice with its device and
//   share of the op (scheduler/plan/slices.hpp). A split op's slices are nodes of the plan's
//   sliced graph (`op#0`, `op#1`, ...; a parameter a split partitions, `param#0`, ...), and every
//   other field of the plan (devices, queues, deliveries, collectives) indexes that graph: with
//   no splits it is the problem's graph itself.
//
// Queue names carry meaning on GPUs only (scheduler/plan/names.hpp): `<gpu>.compute<k>` is
// compute stream k, `<gpu>.h2d<k>` / `<gpu>.d2h<k>` copy engine k, with k empty for the first.
//
// lower() turns a Plan into a TaskGraph and only translates: it never reorders or adds work.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/op_slice.hpp"
#include "sim/core/error.hpp"
#include "sim/engine/collectives/collective.hpp"

namespace placesim::scheduler {

struct PlanItem {
  // Deliver: the whole copy, or for a parallel transmission the part over the device's own route.
  // Launch: with device -1, the launch of op `node`'s kernel; else of the delivery of `node` to
  // `device` (a Deliver item). Sync: the host waits until op `node` has ended (an event sync),
  // so the items after it on its host queue wait too.
  enum class Kind { Compute, Deliver, Stage, Forward, Launch, Sync } kind = Kind::Compute;
  int node = -1;    // graph node
  int device = -1;  // Deliver/Stage/Forward (and a copy's Launch): destination device (topology index); Compute: -1
  bool operator==(const PlanItem&) const = default;
};

struct PlanQueue {
  std::string name;
  std::vector<PlanItem> items;
  bool operator==(const PlanQueue&) const = default;
};

// Host buffers a parameter is copied from. Pinned (page-locked) buffers are read by DMA at the
// route's speed; pageable ones are staged by the driver through a pinned bounce buffer, so each
// such copy runs at most at the host memory's `pageable_bw` (hw::Device).
enum class HostBuffer { Pinned, Pageable };
const char* to_string(HostBuffer b);

// How one parameter reaches one device (weights: host).
struct ParamDelivery {
  // Copy: over the route from host memory. Dha: not copied; every op on the device that reads it
  // reads its bytes over the route while it computes. Parallel: `1 - fraction` of the bytes over
  // the device's own route, `fraction` to `neighbour` (a GPU) and on from there peer to peer:
  // staged there from host memory (`param@device/stage`), or, where the plan has no stage and
  // copies the whole parameter to the neighbour itself (`param@neighbour`, via copy, kept), taken
  // from that copy (one copy from host memory serves both GPUs: SortingHat's PT).
  // Resident: on the device from the start (a GPU's memory, or the host memory a CPU reads), as
  // with `weights: resident`: no copy, its bytes held there for the whole run.
  enum class Via { Copy, Dha, Parallel, Resident } via = Via::Copy;
  int neighbour = -1;                 // Parallel: topology index of the neighbour GPU
  double fraction = 0;                // Parallel: share staged through the neighbour, in (0, 1] (1: all of it)
  int source = -1;                    // host memory holding it; -1: the one nearest the device
  std::optional<HostBuffer> buffer = {};  // unset: the plan's default
  // Copy, Parallel: free the copy on the device once its last reader there has ended (a weight
  // streamed through the GPU); otherwise it stays to the end of the run.
  bool evict = false;
  // Copy, Parallel: ops on the device (nodes of the sliced graph) that read the parameter by
  // direct host access all the same and wait for no copy: readers that run before it arrives (a
  // tied embedding table looked up by DHA at the start and copied for the head at the end).
  std::vector<int> dha_readers = {};
  bool read_by_dha(int op) const {
    return via == Via::Dha || std::find(dha_readers.begin(), dha_readers.end(), op) != dha_readers.end();
  }
  bool operator==(const ParamDelivery&) const = default;
};
const char* to_string(ParamDelivery::Via v);

// A collective over an ordered group of devices (rank r is group[r]), sized and run as
// engine::CollectiveSpec says. Each rank starts once the `after` ops on its device have ended
// (and every `after` op placed off the group); a `before` op on a member's device waits for
// that rank's end, a `before` op off the group for every rank's.
struct PlanCollective {
  std::string name;                 // unique; prefix of its task and queue names
  engine::CollectiveOp op = engine::CollectiveOp::AllReduce;
  std::string algorithm = "ring";   // a name in engine::collective_algorithms()
  std::vector<int> group;           // compute devices (topology indices)
  double bytes = 0;
  int chunks = 1;
  std::vector<double> weights;      // proportional: each rank's capability
  std::vector<int> groups;          // proportional all-gather: each rank's group, 0..k-1
  int senders = 1;                  // point-to-point: ranks [0, senders) send
  std::vector<int> after, before;   // op nodes
  bool operator==(const PlanCollective&) const = default;
};

// One slice of a split op: the device it runs on and its share of the op along the split's axis
// (and along its inner axis, for a 2D split).
struct PlanSlice {
  int device = -1;
  double share = 0;        // in (0, 1]; 1 for replicas
  double inner_share = 1;  // 2D split: in (0, 1]; else 1
  bool operator==(const PlanSlice&) const = default;
};

// An op split along `axis` (models::Axis: rows, cols, heads, tokens, batch, or replicas: whole
// copies of the op), or in two dimensions: along `axis` and, within that, along `inner` (2D
// tensor parallelism: a linear layer's columns between groups, its rows within a group). The
// slices' shares (share * inner_share) sum to 1, except replicas' (1 each). An inner axis of
// replicas copies each part of the outer axis whole onto several devices (data parallelism over
// tensor-parallel groups: a replica's share of the batch, its norms on every GPU of its group):
// the slices come in runs of `copies()` consecutive slices, one run per part, each slice with the
// part's share and inner share 1, so the shares sum to the number of copies.
struct PlanSplit {
  models::Axis axis = models::Axis::Cols;
  std::optional<models::Axis> inner;
  std::vector<PlanSlice> slices;  // slice i is node `op#i` of the sliced graph
  bool operator==(const PlanSplit&) const = default;

  // How many slices copy each part of the outer axis: the shares' sum with inner replicas, else 1.
  int copies() const {
    if (inner != models::Axis::Replicas) return 1;
    double sum = 0;
    for (const PlanSlice& s : slices) sum += s.share;
    return static_cast<int>(std::lround(sum));
  }
};

// Where a plan read from a file gave each op's device and each queue task, so that what only
// lowering finds wrong (an op in no queue, a missing delivery) points at the file; empty for
// the plans placers build. Not part of what a plan is: it never makes two plans differ. Kept by
// index, the file named once (a 100k-op plan has some 300k entries): a task by its place in
// the queues, which is lower()'s task id (scheduler/lower/lower.hpp).
class PlanOrigin {
 public:
  bool operator==(const PlanOrigin&) const { return true; }
  void set_file(std::string file) { file_ = std::move(file); }  // where every entry is
  void add_device(int op, int line, int column) {
    if (static_cast<size_t>(op) >= device_.size()) device_.resize(static_cast<size_t>(op) + 1);
    device_[static_cast<size_t>(op)] = {line, column};
  }
  void add_task(int line, int column) { task_.push_back({line, column}); }  // the next task in queue order
  void add_collective(int line, int column) { collective_.push_back({line, column}); }  // the next collective
  // The entry's location, or an empty one (a plan built in code, an op or task the file does not
  // give).
  SourceLoc device(int op) const { return located(device_, static_cast<size_t>(op)); }
  SourceLoc task(size_t k) const { return located(task_, k); }  // the k-th task, queue by queue
  SourceLoc collective(size_t k) const { return located(collective_, k); }  // the k-th collective

 private:
  struct Position {
    int line = 0, column = 0;  // line 0: none
  };
  SourceLoc located(const std::vector<Position>& v, size_t k) const {
    if (k >= v.size() || v[k].line == 0) return {};
    return {file_, v[k].line, v[k].column};
  }
  std::string file_;               // the plan file, where every entry is
  std::vector<Position> device_;   // per op node: its `devices` entry
  std::vector<Position> task_;     // per task of the queues, in order
  std::vector<Position> collective_;  // per collective, in order
};

struct Plan {
  std::string placer;
  std::map<int, PlanSplit> splits;  // op node of the problem's graph -> its slices
  std::vector<int> device_of;    // per node of the sliced graph: compute device of an op, -1 for parameters
  std::vector<PlanQueue> queues;
  HostBuffer buffer = HostBuffer::Pinned;  // default host buffers of parameter copies
  // (parameter node, device) -> how it gets there; absent: a copy from the nearest host memory.
  std::map<std::pair<int, int>, ParamDelivery> params;
  std::vector<PlanCollective> collectives;
  std::map<int, int> cpu_cores;  // CPU device -> cores its ops run on; absent: all its cores
  // Per dispatch thread, the ops (nodes of the sliced graph) it dispatches, in order; every op
  // once. Empty: one thread dispatches every op in the default order (scheduler/lower/lower.hpp). Only on a
  // machine whose runtime dispatches (hw::Topology::dispatches).
  std::vector<std::vector<int>> dispatch;
  PlanOrigin origin;
  bool operator==(const Plan&) const = default;

  // The delivery options of `param` to `device` (the defaults when the plan gives none).
  ParamDelivery delivery(int param, int device) const {
    auto it = params.find({param, device});
    return it == params.end() ? ParamDelivery{} : it->second;
  }
  HostBuffer buffer_of(const ParamDelivery& d) const { return d.buffer.value_or(buffer); }
  // Cores the plan's ops use on CPU `device`; 0: all of them.
  int cores(int device) const {
    auto it = cpu_cores.find(device);
    return it == cpu_cores.end() ? 0 : it->second;
  }
};

}  // namespace placesim::scheduler
