#include "backend/cpu/core_team.hpp"

#include <chrono>

#include "backend/cpu/machine.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend::cpu {

CoreTeam::CoreTeam(int first_pu, int cores) {
  PLACESIM_ASSERT(cores >= 1, "a team has at least one core");
  for (int part = 1; part < cores; ++part)
    helpers_.emplace_back([this, part, pu = first_pu < 0 ? -1 : first_pu + part] { helper(part, pu); });
}

CoreTeam::~CoreTeam() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void CoreTeam::run(const std::function<void(int part, int parts)>& fn, int parts) {
  PLACESIM_ASSERT(parts >= 1 && parts <= size(), "more parts than the team has cores");
  if (helpers_.empty()) {
    fn(0, parts);
    return;
  }
  fn_ = &fn;
  parts_ = parts;
  pending_.store(static_cast<int>(helpers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  fn(0, parts);
  const auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;  // parts end together
  while (pending_.load(std::memory_order_acquire) > 0 && std::chrono::steady_clock::now() < until) {
  }
  for (int left; (left = pending_.load(std::memory_order_acquire)) > 0;) pending_.wait(left, std::memory_order_acquire);
}

void CoreTeam::helper(int part, int pu) {
  if (pu >= 0) this_machine().pin_this_thread(pu);
  int seen = 0;
  for (;;) {
    // Kernels of one queue follow each other within microseconds: watch for the next one a
    // while before sleeping, as BLAS and OpenMP thread pools do, so a chain of small kernels
    // does not pay a futex wake-up each.
    const auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
    while (generation_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) {
    }
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_acquire)) return;
    if (part < parts_) (*fn_)(part, parts_);
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
  }
}

}  // namespace placesim::backend::cpu
