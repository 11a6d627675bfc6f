// How `placesim run` sweeps into its results file: the file checked (and, with --resume, read)
// before the first point, each finished point written to it as the sweep goes
// (explore::ResultsFile), Ctrl-C (SIGINT) or SIGTERM ending the sweep with the file whole, and,
// under mpirun, the points spread over the ranks (explore::mpi).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "app/explore/run_result.hpp"
#include "app/explore/runner.hpp"
#include "app/explore/scenario.hpp"

namespace placesim::cli {

// A sweep stopped by a signal, its results file holding the points that finished: main prints
// the message (which says how to resume) and exits 130.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct SweepFile {
  std::string path;
  bool resume = false;
  std::string command;  // the command line, recorded in the file
};

// The whole set the file holds at the end (resumed points included); none on an MPI rank other
// than 0, which has run its share and has nothing to print. Throws Interrupted after a signal.
std::optional<explore::RunSet> run_to_file(const explore::Scenario& s, explore::RunOptions ro, const SweepFile& out);

}  // namespace placesim::cli
