// The messages a sweep over MPI ranks exchanges (mpi_sweep.cpp), on Open MPI: the MPI module
// (libplacesim_mpi.so, sim/core/module.hpp), loaded only by a process that mpirun started, so
// a plain `placesim run` never loads MPI. Every call throws std::runtime_error when MPI fails.
#pragma once

#include <cstdint>
#include <vector>

namespace placesim::explore::mpi {

struct MpiApi {
  // MPI_Init_thread (only the calling thread talks MPI); this process's rank and the rank count.
  void (*init)(int& rank, int& size);
  void (*finalize)();
  // Rank 0: an ask that has arrived (true: `from` and `bytes` filled), without waiting.
  bool (*poll_ask)(int& from, std::vector<std::uint8_t>& bytes);
  void (*answer)(int to, long long point);  // rank 0: the point for `to`, -1 for "no more"
  // A rank other than 0: its ask (its last point's runs or failure; empty the first time), then
  // rank 0's answer, waited for.
  long long (*ask)(const std::vector<std::uint8_t>& bytes);
};

}  // namespace placesim::explore::mpi
