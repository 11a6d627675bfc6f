// How a placement, or a run of its plan, ended; typed so that a misspelt status does not compile.
// Results files, JSON and tables write it as to_string() gives it.
//
//   Ok          a plan (or a bound) as asked; a MILP placer proved every solve optimal
//   Infeasible  no plan fits: a placer found none, or the simulated plan's peak memory exceeds
//               a device's capacity (the message names it)
//   Timeout     a MILP placer hit a time or node limit; its best plan stands
//   Error       the placer, or lowering or simulating its plan, failed (the message says why)
//   Refused     validation only: the backend cannot execute the plan on this machine
#pragma once

#include <iosfwd>
#include <string>

namespace placesim::scheduler {

enum class RunStatus { Ok, Infeasible, Timeout, Error, Refused };

const char* to_string(RunStatus s);  // "ok", "infeasible", "timeout", "error", "refused"
RunStatus parse_run_status(const std::string& s);  // InputError for any other text
std::ostream& operator<<(std::ostream& os, RunStatus s);

}  // namespace placesim::scheduler
