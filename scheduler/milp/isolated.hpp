// Runs one solve in a child process, so that CBC can never take placesim down with it.
//
// Debian's CBC 2.10 is built with assertions on, and some of them fire on valid models
// (CglZeroHalf::refreshSolver, OsiClpSolverInterface::crunch); an abort() or a segfault cannot
// be caught in-process. The child (fork) runs the solve and writes its Result into a pipe; the
// parent reads it. A child that dies gives Status::Error naming the signal; a child still
// running at `kill_at` (the time limit plus a grace: CBC cannot stop inside one LP) is killed,
// and the result is NoSolution with a message saying so, so the caller's warm start stands in.
// Copy-on-write makes the fork cheap (about a millisecond); nothing but the pipe is shared.
#pragma once

#include <chrono>
#include <functional>
#include <optional>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {

Result run_isolated(const std::function<Result()>& solve,
                    std::optional<std::chrono::steady_clock::time_point> kill_at);

}  // namespace placesim::scheduler::milp
