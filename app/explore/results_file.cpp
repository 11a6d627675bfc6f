#include "app/explore/results_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/stop_request.hpp"
#include "app/explore/results_h5.hpp"

namespace placesim::explore {

namespace {

namespace fs = std::filesystem;

std::size_t distinct_points(const std::vector<RunResult>& runs) {
  std::set<int> points;
  for (const RunResult& r : runs) points.insert(r.point_index);
  return points.size();
}

}  // namespace

ResultsFile::ResultsFile(std::string path, RunSet header, bool resume) : path_(std::move(path)), lock_(path_), set_(std::move(header)) {
  set_.runs.clear();
  check_writable(path_);  // before the first point, and before reading what is there
  remove_stale_temps(path_);
  std::error_code ec;
  if (resume && fs::exists(path_, ec)) {
    RunSet old = read_results_h5(path_);
    const std::string was = scenario_hash(old.scenario_text, old.hardware_text);
    const std::string now = scenario_hash(set_.scenario_text, set_.hardware_text);
    if (was != now)
      throw InputError(SourceLoc{path_},
                       fmt::format("was made from a different scenario or hardware text (hash {}, this run's {}): "
                                   "--resume continues only the run that wrote it; name another file with -o, or "
                                   "leave out --resume to start again",
                                   was, now));
    // A point with a run a stop cut short (`interrupted`) is run again: its runs go.
    std::set<int> cut;
    for (const RunResult& r : old.runs)
      if (r.status == scheduler::RunStatus::Interrupted) cut.insert(r.point_index);
    for (RunResult& r : old.runs) {
      if (cut.count(r.point_index)) continue;
      done_.insert(r.point_index);
      set_.runs.push_back(std::move(r));
    }
    points_written_ = distinct_points(set_.runs);
    return;
  }
  write();
  created_ = true;
}

void ResultsFile::add(std::vector<RunResult> runs) {
  if (runs.empty()) return;
  // Runs stay in point order: insert before the first run of a later point.
  const int index = runs.front().point_index;
  const auto at = std::upper_bound(set_.runs.begin(), set_.runs.end(), index,
                                   [](int i, const RunResult& r) { return i < r.point_index; });
  set_.runs.insert(at, std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
  dirty_ = true;
  // After a stop request every point is written as it finishes: the process may end soon.
  if (stop_requested() || std::chrono::steady_clock::now() >= next_write_) write();
}

const RunSet& ResultsFile::finish() {
  if (dirty_) write();
  return set_;
}

std::size_t ResultsFile::points_finished() const { return distinct_points(set_.runs); }

void ResultsFile::discard() {
  std::error_code ec;
  if (created_ && set_.runs.empty()) fs::remove(path_, ec);
  else finish();
}

void ResultsFile::write() {
  const auto start = std::chrono::steady_clock::now();
  write_results_h5(path_, set_);  // OutputError (a full disk) leaves the last file whole
  points_written_ = distinct_points(set_.runs);
  const auto end = std::chrono::steady_clock::now();
  next_write_ = end + 9 * (end - start);
  dirty_ = false;
}

}  // namespace placesim::explore
