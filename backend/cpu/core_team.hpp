// Several cores running one kernel together (docs/execution.md, "CPU cores": an op on a CPU queue that
// is not `<cpu>.core<j>` runs across cores 0..k-1 together, each busy for the op's duration).
//
// The calling thread, pinned to the team's first PU by its owner, runs part 0; `cores - 1`
// helper threads, each pinned to the next PU, run parts 1 .. cores-1 of the same function, and
// run() returns when every part has. A team of one has no helper: its kernel runs on the
// calling thread alone, as a `.core<j>` queue's must. Between kernels a helper watches for the
// next one for kSpinBeforeSleep, then sleeps on a futex (C++20 atomic wait), so an idle team
// takes no CPU time and a busy one pays no wake-up per kernel. The function must not throw: a
// kernel is plain arithmetic.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

namespace placesim::backend::cpu {

inline constexpr std::chrono::microseconds kSpinBeforeSleep{200};

class CoreTeam {
 public:
  // `first_pu` < 0: helpers are not pinned (a team working on host memory's behalf).
  CoreTeam(int first_pu, int cores);
  ~CoreTeam();
  CoreTeam(const CoreTeam&) = delete;
  CoreTeam& operator=(const CoreTeam&) = delete;

  int size() const { return static_cast<int>(helpers_.size()) + 1; }
  // fn(part, parts) for every part in [0, parts) at once (parts <= size(); the others idle).
  void run(const std::function<void(int part, int parts)>& fn, int parts);
  void run(const std::function<void(int part, int parts)>& fn) { run(fn, size()); }

 private:
  void helper(int part, int pu);

  std::vector<std::thread> helpers_;
  std::atomic<int> generation_{0};  // bumped once per kernel; helpers wait for it to change
  std::atomic<int> pending_{0};     // helpers not yet done with this kernel
  std::atomic<bool> stop_{false};
  const std::function<void(int, int)>* fn_ = nullptr;  // written before generation_ is bumped
  int parts_ = 1;
};

}  // namespace placesim::backend::cpu
