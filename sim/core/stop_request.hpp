// A request to end long work early with what it has: the first Ctrl-C (or SIGTERM) of a sweep
// (app/cli/run_to_file.cpp). Once made, no further sweep point starts, MILP searches under way
// stop at their next event with their best plan so far, solves not yet begun get no time (their
// warm start stands), and the runs this cut short are marked `interrupted` (a later --resume
// runs their points again). One flag for the process, shared with the modules that load into it
// (sim/core/module.hpp); a solve's child process is told through its shared record
// (scheduler/milp/isolated.hpp).
#pragma once

#include <atomic>

namespace placesim {

// Async-signal-safe: a lock-free atomic store.
void request_stop();
bool stop_requested();
void clear_stop_request();  // a new sweep starts with none
// The flag itself, for loops that poll it (explore::RunOptions::stop).
const std::atomic<bool>& stop_flag();

}  // namespace placesim
