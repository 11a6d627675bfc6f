// A sweep's results file, kept current while the sweep runs, so that a kill at any moment
// leaves a file that opens and holds every point written so far, each whole.
//
// Each time points finish, the whole file is written again to PATH.tmp-<pid> and renamed over
// PATH (results_h5.hpp): a rename is atomic, so PATH is always one complete file, never a
// half-written one, whatever HDF5 was doing when the process died. Rewriting costs time
// proportional to the file, so a rewrite waits until nine times its predecessor's duration
// has passed: writing stays under a tenth of the run, and on small files (milliseconds) every
// point is written as it finishes. Rows are in point order, so the finished file does not
// depend on the order points finished in.
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "sim/core/output_lock.hpp"
#include "app/explore/run_result.hpp"

namespace placesim::explore {

class ResultsFile {
 public:
  // `header`: a RunSet without runs (scenario, texts, baseline, axes, command). Checks before
  // any point runs that `path` can be written and that no other placesim is writing it
  // (OutputLock), and removes the temporary files killed writers left. Without `resume` it
  // writes the file at once, with no points; with `resume` it reads the points already there
  // (none when there is no file) and throws InputError, changing nothing, when the file was
  // made from another scenario or hardware text (results_h5.hpp, scenario_hash).
  ResultsFile(std::string path, RunSet header, bool resume);

  const std::string& path() const { return path_; }
  // Point::index of the points the file held whole when opened (--resume skips them; a point
  // with an `interrupted` run is not one, and its runs are dropped to be run again).
  const std::set<int>& done() const { return done_; }
  // One finished point's runs; written now, or at the next add() or finish() when the last
  // write was too recent (see above).
  void add(std::vector<RunResult> runs);
  // Writes what add() has not yet written; the whole set, points in order.
  const RunSet& finish();
  // Points finished (resumed ones included), and those the file on disk holds: the last write
  // that succeeded.
  std::size_t points_finished() const;
  std::size_t points_written() const { return points_written_; }
  // After bad input: removes the file when this run created it and no point finished (nothing is
  // left of the run); otherwise writes the finished points and keeps it. Finished points are
  // never removed.
  void discard();

 private:
  void write();

  std::string path_;
  OutputLock lock_;  // held from before the first point to the end: one sweep per file
  RunSet set_;
  std::set<int> done_;
  bool created_ = false;
  std::size_t points_written_ = 0;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point next_write_{};
};

}  // namespace placesim::explore
