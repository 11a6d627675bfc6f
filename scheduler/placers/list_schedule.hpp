// What the list-scheduling placers (heft, chrion, m-topo, m-etf, m-sct, getf) share: the
// communication model they schedule with, the parameter copies they book (weights: host), a
// device timeline with insertion, the schedule they predict, the memory they book, and the plan
// that executes that schedule.
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
// Parameters (weights: host) arrive as param_copies.hpp books them: serialised per copy channel.
//
// The execution contract a schedule predicts (docs/execution.md): an op starts when its queue's
// previous op has ended, its dispatch has ended (dispatch_clock.hpp; only where the machine's
// runtime dispatches ops) and every input has arrived (an input from another device a delivery
// time after its producer ends; a parameter when its booked copy ends). scheduled_plan() builds
// the plan so that this holds: each device runs its ops in one queue in order of scheduled
// start; each delivery of an activation sits on a queue of its own (named like the task,
// `op@device`), so deliveries never wait for each other; each copy channel runs its parameter
// copies on one queue in the order they were booked (build_plan lays these queues out); the
// dispatch threads dispatch the ops in the order they were placed. lower()
// gives every edge its own fixed time, as the schedules here do, so the prediction is exact
// under `network: ideal`, fixed durations and no launch cost.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/placers/dispatch_clock.hpp"
#include "scheduler/placers/param_copies.hpp"
#include "scheduler/placers/timeline.hpp"
#include "scheduler/plan/plan.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

class CommModel {
 public:
  explicit CommModel(const Problem& p);
  // c(e, a, b) above in two parts: what the edge and its source decide (once per input of an
  // op), and the destination's part (once per device the op is tried on).
  struct Outbound {
    int from = -1;
    bool fixed = false;   // the edge's fixed time, or 0 under network: ideal
    double time = 0;      // that time
    double bytes = 0;
    std::size_t row = 0;  // where from's row starts in the tables below
  };
  Outbound outbound(int e, int a) const;
  double time_to(const Outbound& o, int b) const {
    if (b == o.from) return 0;
    if (o.fixed) return o.time;
    const std::size_t ij = o.row + static_cast<std::size_t>(index_[b]);
    return latency_[ij] + o.bytes * inv_bw_[ij];
  }
  double edge_time(int e, int a, int b) const { return time_to(outbound(e, a), b); }  // c(e, a, b)
  // Mean of c(e, a, b) over ordered pairs a != b of connected compute devices (HEFT's c-bar).
  double mean_edge_time(int e) const;

 private:
  const Problem* p_;
  std::vector<int> index_;  // topology device -> row in the tables below, -1 for non-compute
  std::size_t n_ = 0;       // compute devices: the tables are n_ x n_, row by row
  std::vector<double> latency_, inv_bw_;
  double mean_latency_ = 0, mean_inv_bw_ = 0;
};

struct Schedule {
  std::vector<int> device_of;              // per graph node, -1 for params and unplaced ops
  std::vector<double> start, finish;       // per graph node
  double makespan = 0;
  ParamCopies copies;                      // the parameter copies the placed ops need
  DispatchClock dispatch;                  // the runtime's dispatch threads, in placement order
  explicit Schedule(const Problem& p);
  // Op nodes by scheduled start; ties by position in the graph's topological order.
  std::vector<int> order(const models::Graph& g) const;
  // Places `op`, books the parameter copies it needs on `dev` and its dispatch on `thread`.
  void place(int op, int dev, double s, double f, int thread = 0);
};

// When the inputs of an op arrive on each device it is tried on. A list scheduler tries every
// device for every op: the op's producers are read once (gather) and each device then costs
// one c(e, a, b) per input (on).
class InputArrivals {
 public:
  InputArrivals(const Problem& p, const CommModel& comm) : p_(&p), comm_(&comm) {}
  // Reads the producers of `op` in `s` (every producing op placed); `s` must outlive the calls
  // to on().
  void gather(const Schedule& s, int op);
  // When every input of the gathered op has arrived on `dev`: its producers' outputs, and its
  // parameters as s.copies would book them.
  double on(int dev) const;
  // The latest end of a producer: no device has every input before it (c >= 0).
  double latest_end() const { return latest_end_; }

 private:
  struct Input {
    double end;
    CommModel::Outbound route;
  };
  const Problem* p_;
  const CommModel* comm_;
  const Schedule* s_ = nullptr;
  int op_ = -1;
  std::vector<Input> inputs_;  // reused from op to op
  double latest_end_ = 0;
};

// Ops in `order` (dependencies first), each on device_of[op], one FIFO queue per device.
Schedule schedule_in_order(const Problem& p, const CommModel& comm, const std::vector<int>& device_of,
                           const std::vector<int>& order);

// Earliest Task First (Hwang, Chow, Anger and Lee, SIAM J. Comput. 18(2), 1989) with memory
// booking, as m-ETF, m-SCT and GETF run it. Op v may use the devices of groups[group_of[v]].
// Repeatedly, over every ready op v and every device d of its group that it fits on,
//   EST(v, d) = max(avail(d), max over preds u of (AFT(u) + c(u, v)), arrival(v, d))
// (arrival: when v's parameters would be on d, param_copies.hpp; 0 unless weights: host)
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

// The plan that executes `s` as the header says.
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
