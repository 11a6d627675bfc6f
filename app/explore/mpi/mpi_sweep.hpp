// A sweep over MPI ranks (built when Open MPI is found; PLACESIM_HAVE_MPI). Under mpirun, rank 0
// hands points out one at a time as ranks ask, runs points on its own threads too, and is the
// only one to write: the others send each point's runs back whole (run_result_wire.hpp), so
// the results are the same whatever the number of ranks. Each rank other than 0 runs one point
// at a time: start one rank per core.
#pragma once

#include <string>

#include "app/explore/runner.hpp"
#include "app/explore/scenario.hpp"

namespace placesim::explore::mpi {

// MPI for the life of a command: initialised when the process was started by mpirun (its
// environment says so), so a plain `placesim run` never touches MPI.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Rank 0: hands `queue`'s points to the other ranks as they ask and passes their runs back to
  // it, until every rank has been told there is no more (RunOptions::serve).
  void serve(PointQueue& queue);
  // A rank other than 0: asks rank 0 for points and runs them until told there is no more.
  void work(const Scenario& s, const TraceRequest& trace);

 private:
  bool started_ = false;
  bool served_ = false;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace placesim::explore::mpi
