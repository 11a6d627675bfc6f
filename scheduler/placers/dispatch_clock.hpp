// A list schedule's view of the runtime's dispatch threads (docs/execution.md, "The runtime";
// scheduler/lower/lower.hpp). Ops are dispatched in the order they are placed, each by the thread the
// schedule names: its dispatch ends its device's dispatch_s after the thread's previous
// dispatch, or after the end of the thread's previous op if that op ran on a CPU (a CPU op holds
// its thread). The op cannot start before its dispatch has ended. The orders booked here are
// the plan's `dispatch`, so lower() dispatches exactly as the schedule predicts.
//
// On a machine whose runtime dispatches nothing (hw::Topology::dispatches false) the clock is
// inactive: ready() is 0 and the plan gets no dispatch order.
#pragma once

#include <vector>

#include "scheduler/problem.hpp"

namespace placesim::scheduler {

class DispatchClock {
 public:
  explicit DispatchClock(const Problem& p);
  bool active() const { return active_; }
  // When the next op that `thread` dispatches onto `dev` would have its dispatch done.
  double ready(int thread, int dev) const;
  // Books `op` on `dev`, dispatched by `thread`, running until `finish`.
  void book(int thread, int op, int dev, double finish);
  // Per thread used, its ops in dispatch order (empty when inactive); threads up to the highest
  // one booked, each with at least one op.
  std::vector<std::vector<int>> orders() const;

 private:
  const Problem* p_;
  bool active_ = false;
  std::vector<double> free_;              // per thread: when it may begin its next dispatch
  std::vector<std::vector<int>> orders_;  // per thread
};

}  // namespace placesim::scheduler
