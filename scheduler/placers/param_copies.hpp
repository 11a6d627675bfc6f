// The parameter copies a list schedule books under `weights: host` (every parameter starts in
// host memory and is copied to each device that reads it), and the copy channels they run on.
// heft, chrion, m-topo, m-etf, m-sct and getf count them through list_schedule.hpp
// (InputArrivals and Schedule::place); deepplan takes its copy times from copy_time().
//
// Channels. A copy to compute device d comes from h(d), the host memory nearest d, over
// route(h(d), d). Devices whose copy routes cross a common link direction (two GPUs behind one
// PCIe bus) form one channel: the connected components of "shares a link direction". The plan
// runs each channel's copies on one FIFO queue, in the order the schedule booked them:
//   `<d>.h2d`      a channel of device d alone (for a GPU, its first H2D copy engine's queue);
//   `<link>.copy`  a shared channel, named after the lowest-index link two of its devices share.
//
// Copy time of a parameter read over edge e, copied to device d:
//   t(e, d) = time_s(e)                    the edge has a fixed time
//           = 0                            network: ideal
//           = L(d) + bytes(e) / R(d)       else
//   L(d) = the route's latency (sum over its hops);
//   R(d) = min(the route's slowest link direction, copy_engine_bw of d's first H2D engine (a GPU,
//          when > 0), memory_bw of h(d) (when > 0)): the rates lower() charges a lone copy.
// The bytes are those of the edge to the first reader placed on d (lower() copies the largest
// over d's readers: the same when every reader reads the whole parameter, as the generators
// make them). Plans built here copy from pinned buffers (the plan default), so no pageable cap.
//
// Booking (a serialised-channel model): a channel's copies end one after another,
//   end_k = end_{k-1} + t_k,   end_0 = 0,
// the copies an op needs being booked, in the order of its in-edges, when the op is placed. A
// parameter already booked to d costs nothing more: it arrives at its booked end. Hence
//   arrival(v, d) = max over the parameters w that v reads of end(w, d)   (0 with none, and
//                   always 0 under `weights: resident`).
// Why this is the engine's time (its execution contract): copies depend on nothing, so a channel's
// queue runs them back to back from time 0, each waiting its latency and then alone on its
// links at R(d). Two copies sharing a link in parallel would end the later one at the same time,
// the earlier one later; one queue in booking order makes every copy end when it is predicted
// to. Left out: activations that cross a channel's links (a CPU's output sent to a GPU) share
// them with the copies, as CommModel ignores contention between activations; and copies of
// different channels share their host memory's bandwidth, which binds only where the channels
// together are faster than it.
#pragma once

#include <string>
#include <vector>

#include "scheduler/plan/plan.hpp"
#include "scheduler/plan/builder.hpp"
#include "scheduler/problem.hpp"

namespace placesim::scheduler {

class ParamCopies {
 public:
  struct Copy {
    int param = -1, device = -1;
    int channel = -1;       // index into the channels, in the order of their first device
    double start = 0, end = 0;
  };

  explicit ParamCopies(const Problem& p);
  // When every parameter `op` reads would be on `dev`, booking the missing copies now.
  double arrival(int op, int dev) const;
  // Books the copies arrival(op, dev) counted.
  void book(int op, int dev);
  // L(d) + bytes / R(d): seconds a lone copy of `bytes` to `dev` takes (0 under network: ideal).
  double copy_time(double bytes, int dev) const;
  // The copies booked so far, in booking order.
  const std::vector<Copy>& booked() const { return booked_; }
  // The copies booked so far in booking order, each on its channel's queue (for build_plan).
  std::vector<ParamCopy> plan_copies() const;

 private:
  // The copies `op` still needs on `dev` (parameter, seconds), in the order of its in-edges;
  // valid until the next call.
  const std::vector<std::pair<int, double>>& missing(int op, int dev) const;

  const Problem* p_;
  std::vector<int> channel_of_;           // per topology device (compute devices only)
  std::vector<std::string> channel_name_;
  std::vector<double> latency_, inv_rate_;  // per topology device: L(d), 1 / R(d)
  std::vector<double> channel_end_;       // end of the last copy booked on each channel
  std::vector<std::vector<double>> end_;  // [device][node]: booked end of a parameter there, -1: none
  std::vector<Copy> booked_;
  // missing()'s answer, kept so that pricing an op on every device allocates nothing.
  mutable std::vector<std::pair<int, double>> missing_;
};

}  // namespace placesim::scheduler
