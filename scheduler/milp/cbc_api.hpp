// What the CBC module (libplacesim_cbc.so: cbc_solver.cpp, the only code that sees COIN-OR's
// headers or links its libraries) offers the program; sim/core/module.hpp says why it is a
// module. solve() (solve.cpp) wraps `search` in the time limits and the child process
// (isolated.hpp) that milp.hpp describes.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {

struct CbcApi {
  // One CBC search, stopped at `deadline` (none: no limit). Every COIN or std exception is a
  // Status::Error result.
  Result (*search)(const Model& model, const SolveOptions& options,
                   std::optional<std::chrono::steady_clock::time_point> deadline);
  // No search: the warm start's integer variables fixed and the rest from one LP (milp.hpp, a
  // limit of 0).
  Result (*complete_warm_start)(const Model& model, const SolveOptions& options);
  void (*write_model)(const Model& model, const std::filesystem::path& path, ModelFormat format);
  Model (*read_model)(const std::filesystem::path& path);
};

const CbcApi& cbc();  // loaded on first use

}  // namespace placesim::scheduler::milp
