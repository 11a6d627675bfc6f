// How a placement, or a run of its plan, ended; typed so that a misspelt status does not compile.
// Results files, JSON and tables write it as to_string() gives it.
//
//   Ok          a plan (or a bound) as asked; a MILP placer proved every solve optimal
//   Infeasible  no plan fits: a placer found none, or the simulated plan's peak memory exceeds
//               a device's capacity (the message names it)
//   Limit       a MILP placer hit its time or node limit; its best plan stands (the note says
//               which limit). Results files before 0.2 wrote "timeout": read as Limit.
//   Interrupted a stop was requested (Ctrl-C, sim/core/stop_request.hpp) while the placer
//               searched: its best plan so far stands, and `run --resume` runs the point again
//   Error       the placer, or lowering or simulating its plan, failed (the message says why)
//   Refused     validation only: the backend cannot execute the plan on this machine
#pragma once

#include <iosfwd>
#include <string>

namespace placesim::scheduler {

enum class RunStatus { Ok, Infeasible, Limit, Error, Refused, Interrupted };

const char* to_string(RunStatus s);  // "ok", "infeasible", "limit", "error", "refused", "interrupted"
RunStatus parse_run_status(const std::string& s);  // InputError for any other text
std::ostream& operator<<(std::ostream& os, RunStatus s);

}  // namespace placesim::scheduler
