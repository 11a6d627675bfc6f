#include "scheduler/placers/dispatch_clock.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::scheduler {

DispatchClock::DispatchClock(const Problem& p) : p_(&p), active_(p.topo->dispatches()) {}

double DispatchClock::ready(int thread, int dev) const {
  if (!active_) return 0;
  const double free = static_cast<std::size_t>(thread) < free_.size() ? free_[thread] : 0.0;
  return free + p_->topo->devices[dev].dispatch_s;
}

void DispatchClock::book(int thread, int op, int dev, double finish) {
  if (!active_) return;
  if (thread >= p_->topo->runtime.dispatch_threads)
    throw InputError(fmt::format("the schedule dispatches from thread {}, but the runtime of '{}' has {} "
                                 "(runtime: {{dispatch_threads: N}})", thread, p_->topo->name,
                                 p_->topo->runtime.dispatch_threads));
  if (static_cast<std::size_t>(thread) >= free_.size()) {
    free_.resize(thread + 1, 0.0);
    orders_.resize(thread + 1);
  }
  const hw::Device& d = p_->topo->devices[dev];
  free_[thread] = d.kind == hw::DeviceKind::Cpu ? std::max(finish, free_[thread] + d.dispatch_s)
                                                : free_[thread] + d.dispatch_s;
  orders_[thread].push_back(op);
}

std::vector<std::vector<int>> DispatchClock::orders() const {
  std::vector<std::vector<int>> out = orders_;
  out.erase(std::remove_if(out.begin(), out.end(), [](const std::vector<int>& o) { return o.empty(); }), out.end());
  return out;
}

}  // namespace placesim::scheduler
