#include "sim/cli/run_to_file.hpp"

#include <signal.h>

#include <atomic>
#include <fmt/format.h>
#include <set>

#include "sim/core/error.hpp"
#include "sim/explore/axis_values.hpp"
#include "sim/explore/results_file.hpp"
#ifdef PLACESIM_HAVE_MPI
#include "sim/explore/mpi/mpi_sweep.hpp"
#endif

namespace placesim::cli {

namespace {

std::atomic<bool> g_stop{false};  // lock-free, so the signal handler may set it
static_assert(std::atomic<bool>::is_always_lock_free);

// The first Ctrl-C stops handing out points; SA_RESETHAND makes a second one end the process.
void on_signal(int) { g_stop = true; }

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

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

  g_stop = false;
  catch_stop_signals();
  ro.skip = file.done();
  ro.stop = &g_stop;
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
  std::set<int> points;
  for (const explore::RunResult& r : set.runs) points.insert(r.point_index);
  if (g_stop && points.size() < s.points.size()) {  // a signal after the last point ends nothing
    throw Interrupted(fmt::format("interrupted: {} of {} sweep points are in {}; run the same command with --resume "
                                  "to run the rest",
                                  points.size(), s.points.size(), out.path));
  }
  return set;
}

}  // namespace placesim::cli
