#include "sim/cli/run_to_file.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fmt/format.h>
#include <set>

#include "sim/core/error.hpp"
#include "sim/core/stop_request.hpp"
#include "sim/explore/axis_values.hpp"
#include "sim/explore/results_file.hpp"
#ifdef PLACESIM_HAVE_MPI
#include "sim/explore/mpi/mpi_sweep.hpp"
#endif

namespace placesim::cli {

namespace {

// The results file's lock, for the second signal to remove (a handler may not allocate).
char g_lock_path[4096];
std::atomic<int> g_signals{0};
static_assert(std::atomic<int>::is_always_lock_free);

constexpr char kStopping[] =
    "\nplacesim: stopping: no new sweep points start, and searches under way end within seconds with their best "
    "plan so far (again to quit at once)\n";

// The first Ctrl-C (or SIGTERM) requests a stop (sim/core/stop_request.hpp) and says so at once;
// a second ends the process as the signal would, removing the lock first (the results file
// holds every point written before; the next run removes a temporary file left half-written).
// Only async-signal-safe calls here.
void on_signal(int sig) {
  if (g_signals.fetch_add(1) == 0) {
    request_stop();
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kStopping, sizeof kStopping - 1);
    return;
  }
  if (g_lock_path[0] != '\0') ::unlink(g_lock_path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// SIGINT and SIGTERM caught for one sweep; the handlers found before come back when it ends, so
// that a program calling run_to_file (the Python module's interpreter) keeps its own.
class StopSignals {
 public:
  explicit StopSignals(const std::string& results_path) {
    const std::string lock = results_path + ".lock";
    g_lock_path[0] = '\0';
    if (lock.size() < sizeof g_lock_path) std::memcpy(g_lock_path, lock.c_str(), lock.size() + 1);
    g_signals = 0;
    clear_stop_request();
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

}  // namespace

std::optional<explore::RunSet> run_to_file(const explore::Scenario& s, explore::RunOptions ro, const SweepFile& out) {
#ifdef PLACESIM_HAVE_MPI
  explore::mpi::Session mpi;
  if (mpi.rank() > 0) {
    mpi.work(s, ro.trace_dir);
    return std::nullopt;
  }
  if (mpi.size() > 1) ro.serve = [&](explore::PointQueue& q) { mpi.serve(q); };
#endif
  explore::RunSet header;
  header.scenario = s.name;
  header.scenario_text = s.text;
  header.hardware_text = s.hardware_text;
  header.baseline = s.baseline;
  header.axes = s.axes;
  header.axis_numeric = explore::numeric_axes(s);
  header.command = out.command;
  explore::ResultsFile file(out.path, std::move(header), out.resume);

  const StopSignals signals(out.path);
  ro.skip = file.done();
  ro.stop = &stop_flag();
  ro.on_point = [&](std::vector<explore::RunResult> runs) { file.add(std::move(runs)); };
  try {
    explore::run_scenario(s, ro);
  } catch (const InputError&) {
    file.discard();  // bad input: nothing is left of this run
    throw;
  } catch (...) {
    file.finish();  // what finished stays
    throw;
  }
  const explore::RunSet& set = file.finish();
  // Finished points: those with every run whole (an `interrupted` one is run again by --resume).
  std::set<int> points, cut;
  for (const explore::RunResult& r : set.runs) {
    points.insert(r.point_index);
    if (r.status == scheduler::RunStatus::Interrupted) cut.insert(r.point_index);
  }
  const size_t finished = points.size() - cut.size();
  if (stop_requested() && finished < s.points.size()) {  // a signal after the last point ends nothing
    throw Interrupted(fmt::format("interrupted: {} of {} sweep points are finished in {}{}; run the same command with "
                                  "--resume to run the rest",
                                  finished, s.points.size(), out.path,
                                  cut.empty() ? "" : fmt::format(" ({} more with runs marked interrupted, their best "
                                                                 "plans so far)",
                                                                 cut.size())));
  }
  return set;
}

}  // namespace placesim::cli
