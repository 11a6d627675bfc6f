// Runs one solve in a child process, so that CBC can never take placesim down with it.
//
// Debian's CBC 2.10 is built with assertions on, and some of them fire on valid models
// (CglZeroHalf::refreshSolver, OsiClpSolverInterface::crunch); an abort() or a segfault cannot
// be caught in-process. The child (fork) runs the solve and writes its Result into a pipe; the
// parent reads it. A child that dies gives Status::Error naming the signal; a child still
// running at `kill_at` (the time limit plus a grace: CBC cannot stop inside one LP) is killed,
// and the result is NoSolution with a message saying so, so the caller's warm start stands in.
// A stop request (Ctrl-C) is passed on to the child (LiveSolve::stop) and brings `kill_at` to
// within kStopGrace of it, so a stopped sweep returns in seconds.
// Copy-on-write makes the fork cheap (about a millisecond); nothing but the pipe is shared.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {

// What the search under way has found so far, in memory the child shares with the parent: the
// child's event handler writes it (cbc_solver.cpp), and the parent, while it waits, shows it as
// the detail of its activity (sim/core/activity.hpp: the progress line of a long solve).
struct LiveSolve {
  std::atomic<double> incumbent{kInf};  // the model's objective; +inf without an incumbent
  std::atomic<double> bound{-kInf};
  std::atomic<std::int64_t> nodes{0};
  // Set by the parent once a stop is requested (sim/core/stop_request.hpp): the child's search
  // then ends at its next event as at its deadline, with its incumbent.
  std::atomic<bool> stop{false};
};
// In the child running a solve: its shared record; elsewhere null.
LiveSolve* live_solve();

// `seconds_per_unit`: the objective's time unit, so the progress line shows the incumbent and
// bound as times ("incumbent 12.54 ms"); 0 shows them as the model's numbers.
Result run_isolated(const std::function<Result()>& solve, std::optional<std::chrono::steady_clock::time_point> kill_at,
                    double seconds_per_unit = 0);

}  // namespace placesim::scheduler::milp
