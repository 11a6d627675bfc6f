// milp.hpp's entry points: the time limits and the child process each search runs in
// (isolated.hpp) are here; CBC itself is in its module (cbc_api.hpp).
#include <algorithm>
#include <chrono>

#include "scheduler/milp/cbc_api.hpp"
#include "scheduler/milp/isolated.hpp"
#include "scheduler/milp/milp.hpp"
#include "sim/core/activity.hpp"
#include "sim/core/module.hpp"

namespace placesim::scheduler::milp {

namespace {

using Clock = std::chrono::steady_clock;

// CBC's failures that exceptions do not reach (assertions, segfaults) and a search that does
// not stop: each search runs in its own process (isolated.hpp), killed past the time limit
// plus this grace. That process also holds its own copy of CBC's static driver state
// (CbcSolver.cpp), so searches on several threads (`placesim run --jobs 2`) do not garble
// each other, as they did in one process (CBC's log on stdout, arguments ignored).
Clock::duration grace(std::chrono::duration<double> limit) {
  return std::chrono::duration_cast<Clock::duration>(std::max(limit, std::chrono::duration<double>(5.0)));
}

[[gnu::used]] const void* const kModuleImports[] = {module_import(&current_activity), module_import(&live_solve),
                                                    module_import(&relative_gap)};

}  // namespace

const CbcApi& cbc() { return module_api<CbcApi>("cbc"); }

Result solve(const Model& model, const SolveOptions& options) {
  const Clock::time_point start = Clock::now();
  const CbcApi& solver = cbc();  // loaded here, before the child process is made
  std::optional<Clock::time_point> at, kill_at;
  if (options.time_limit) {
    const auto limit = std::max(*options.time_limit, {});
    at = start + std::chrono::duration_cast<Clock::duration>(limit);
    kill_at = *at + grace(limit);
  }
  Result r = options.time_limit && options.time_limit->count() <= 0
                 ? solver.complete_warm_start(model, options)
                 : run_isolated([&] { return solver.search(model, options, at); }, kill_at, options.seconds_per_unit);
  r.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

void write_model(const Model& model, const std::filesystem::path& path, ModelFormat format) {
  cbc().write_model(model, path, format);
}

Model read_model(const std::filesystem::path& path) { return cbc().read_model(path); }

}  // namespace placesim::scheduler::milp
