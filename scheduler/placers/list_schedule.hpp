// What the list-scheduling placers (heft, chrion, m-topo, m-etf, m-sct, getf) share: the
// communication model they schedule with, a device timeline with insertion, the schedule they
// predict, the memory they book, and the plan that executes that schedule.
//
// Communication time of graph edge e = (u, v) with u on device a and v on device b:
//
//   c(e, a, b) = 0                                   a == b
//              = time_s(e)                           the edge has a fixed time
//              = 0                                   network: ideal
//              = latency(a, b) + bytes(e) / bw(a, b)  else (bw: the route's slowest hop)
//
// (latency and bw as hw::route_cost prices the route a -> b)
//
// It ignores contention, as the list-scheduling literature does; the simulator does not.
//
// Parameter copies (weights: host): before an op runs on a device, each parameter it reads
// must have been copied there (CopyBook below); an op's inputs are ready at
//   max(data_ready over its producers, CopyBook::ready over its parameters).
//
// The execution contract a schedule predicts (DESIGN.md): an op starts when its queue's
// previous op has ended and every input has arrived; an input from another device arrives a
// delivery time after its producer ends. scheduled_plan() builds the plan so that this holds:
// each device runs its ops in one queue in order of scheduled start, and each delivery of an
// activation sits on a queue of its own (named like the task, `op@device`), so deliveries never
// wait for each other. lower() gives one delivery per (producer, device) the largest fixed time
// of the edges it serves; the schedules here use each edge's own time, so the prediction is
// exact (under `network: ideal`, fixed durations, no launch cost) when the out-edges of each op
// that cross to one device carry one time, as in every random DAG.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "scheduler/plan.hpp"
#include "scheduler/plan_builder.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

class CommModel {
 public:
  explicit CommModel(const Problem& p);
  double edge_time(int e, int a, int b) const;  // c(e, a, b) above
  // Mean of c(e, a, b) over ordered pairs a != b of connected compute devices (HEFT's c-bar).
  double mean_edge_time(int e) const;

 private:
  const Problem* p_;
  std::vector<int> index_;  // topology device -> row in the tables below, -1 for non-compute
  std::vector<std::vector<double>> latency_, inv_bw_;
  double mean_latency_ = 0, mean_inv_bw_ = 0;
};

// Busy intervals of one device, sorted and disjoint. A vector, not a set: the gap search scans
// intervals in order, which a contiguous array does several times faster.
class Timeline {
 public:
  // Earliest start >= ready of a task of `dur` seconds: in the first idle gap it fits
  // (insertion) or after the last interval.
  double earliest_start(double ready, double dur, bool insertion) const;
  void add(double start, double finish);
  double available() const { return busy_.empty() ? 0.0 : busy_.back().second; }

 private:
  std::vector<std::pair<double, double>> busy_;
};

struct Schedule {
  std::vector<int> device_of;              // per graph node, -1 for params and unplaced ops
  std::vector<double> start, finish;       // per graph node
  std::vector<ParamCopy> copies;           // in the order booked
  double makespan = 0;
  explicit Schedule(size_t nodes) : device_of(nodes, -1), start(nodes, 0.0), finish(nodes, 0.0) {}
  // Op nodes by scheduled start; ties by position in the graph's topological order.
  std::vector<int> order(const models::Graph& g) const;
  void place(int op, int dev, double s, double f);
};

// When every input of `op` (all its producers scheduled) has arrived on `dev`.
double data_ready(const Problem& p, const CommModel& comm, const Schedule& s, int op, int dev);

// Parameter copies under `weights: host`, booked as a schedule places ops (DESIGN.md: every
// parameter starts in host memory and is copied to each device that reads it, before its first
// reader there; build_plan queues a device's copies on `<dev>.h2d`). The copy of parameter w to
// device d, from the host memory nearest d, takes
//   t(w, d) = latency(route) + bytes / bw,
//   bw = min(the route's slowest hop, d's copy engine rate, the host memory's bandwidth)
// (an edge's fixed `time` instead, when it has one; 0 under `network: ideal`), and starts once
// every copy booked before it on the same channels has ended: d's copy queue, and the channels
// that set bw (the route's slowest link directions, or the host memory when it is the slowest).
// Copies bottlenecked on one bus thus run one after another, and the plan runs them so too:
// scheduled_plan() puts each copy on the queue of its first bottleneck channel (`<link>.copy`,
// or `<host>.copy` when the host memory is the slowest; the device's `<dev>.h2d` when none) in
// the order booked, as SortingHat's per-bus copy queues do (run at once instead, max-min sharing
// would end the last of them at the same instant but delay the first). A channel faster than
// the copy is not booked: two copies share it without slowing (a 76.8 GB/s DRAM feeding two
// 12 GB/s buses). A parameter already on d costs nothing more.
// Nothing at all under `weights: resident`.
class CopyBook {
 public:
  explicit CopyBook(const Problem& p);
  // When all of `op`'s parameters would be on `dev`, were it placed there now.
  double ready(int op, int dev) const { return copy(op, dev, nullptr, nullptr); }
  // Books those copies, appending them to s.copies: `op` was placed on `dev`.
  void book(int op, int dev, Schedule& s);

 private:
  double copy(int op, int dev, std::vector<std::pair<int, double>>* booked, std::vector<ParamCopy>* copies) const;
  const Problem* p_;
  bool active_;
  std::vector<double> free_;                 // per channel: link directions, host memories, copy queues
  std::vector<std::vector<bool>> on_device_;  // [device][node]: the parameter is (being) copied there
};

// When `op`'s inputs, its producers' data and its parameters, are all on `dev`.
double inputs_ready(const Problem& p, const CommModel& comm, const CopyBook& copies, const Schedule& s, int op, int dev);

// Ops in `order` (dependencies first), each on device_of[op], one FIFO queue per device,
// parameter copies booked as they go.
Schedule schedule_in_order(const Problem& p, const CommModel& comm, const std::vector<int>& device_of,
                           const std::vector<int>& order);

// Earliest Task First (Hwang, Chow, Anger and Lee, SIAM J. Comput. 18(2), 1989) with memory
// booking, as m-ETF, m-SCT and GETF run it. Op v may use the devices of groups[group_of[v]].
// Repeatedly, over every ready op v and every device d of its group that it fits on,
//   EST(v, d) = max(avail(d), max over preds u of (AFT(u) + c(u, v)))
// and the pair with the smallest EST is scheduled (ties: the higher rank, then the lower op,
// then the device listed first). m-SCT: favourite[u] (-1 for none) is the child a device keeps
// itself for once u ran there: another op may start on it only if it ends by EST(f, d).
struct EtfResult {
  Schedule schedule;
  int stuck = -1;  // a ready op that fits on no device of its group (the schedule is partial), or -1
};
EtfResult etf_schedule(const Problem& p, const CommModel& comm, const std::vector<double>& rank,
                       const std::vector<std::vector<int>>& groups, const std::vector<int>& group_of,
                       const std::vector<int>& favourite);

// The plan that executes `s` as the header says, its parameter copies as CopyBook says: built by
// build_plan with delivery_queues and s.copies.
Plan scheduled_plan(const Problem& p, std::string placer, const Schedule& s, const BuildOptions& opts = {});

// A plan's makespan under the execution contract with nothing shared: every task of lower(p,
// plan) runs at full speed once its dependencies and its queue predecessor have ended, taking
// its latency plus max over the resources r it uses of amount_r / capacity_r (and at least
// 1 / rate_cap). Exact where nothing contends (`network: ideal`, one queue per device); the
// prediction of placers that do not schedule (single-device, round-robin).
double contention_free_makespan(const Problem& p, const Plan& plan);

// Memory an op takes on a device, booked conservatively: its output and state for the whole
// run, and each parameter it reads the first time one of its readers lands there (Baechi's
// permanent + temporary memory, never freed). Capacity: the device's memory, a CPU's that of
// its nearest host memory; 0 means unlimited.
class MemoryBook {
 public:
  explicit MemoryBook(const Problem& p);
  double need(int op, int dev) const;
  bool fits(int op, int dev) const;
  void add(int op, int dev);
  double used(int dev) const { return used_[dev]; }
  double capacity(int dev) const { return capacity_[dev]; }

 private:
  const Problem* p_;
  std::vector<double> used_, capacity_;
  std::vector<std::vector<bool>> has_param_;  // [device][node]
};

// Upward rank (Topcuoglu et al. 2002, Eq. 3): rank(v) = w-bar(v) + max over successors s of
// (c-bar(v, s) + rank(s)); w-bar is the mean duration over the devices that can run v.
std::vector<double> upward_rank(const Problem& p, const CommModel& comm, const std::vector<int>& devices);

// Mean duration of `op` over the devices of `devices` that can run it; InputError when none can.
double mean_duration(const Problem& p, int op, const std::vector<int>& devices);

}  // namespace placesim::scheduler
