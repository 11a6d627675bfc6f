#include "scheduler/run_status.hpp"

#include <fmt/format.h>
#include <ostream>

#include "sim/core/error.hpp"

namespace placesim::scheduler {

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Infeasible: return "infeasible";
    case RunStatus::Limit: return "limit";
    case RunStatus::Error: return "error";
    case RunStatus::Refused: return "refused";
    case RunStatus::Interrupted: return "interrupted";
  }
  return "error";
}

RunStatus parse_run_status(const std::string& s) {
  for (RunStatus r : {RunStatus::Ok, RunStatus::Infeasible, RunStatus::Limit, RunStatus::Error, RunStatus::Refused,
                      RunStatus::Interrupted})
    if (s == to_string(r)) return r;
  if (s == "timeout") return RunStatus::Limit;  // the word before a node limit had its own (run_status.hpp)
  throw InputError(fmt::format("unknown run status '{}'", s));
}

std::ostream& operator<<(std::ostream& os, RunStatus s) { return os << to_string(s); }

}  // namespace placesim::scheduler
