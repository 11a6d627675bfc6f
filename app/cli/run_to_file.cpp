#include "app/cli/run_to_file.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fmt/format.h>
#include <mutex>
#include <set>
#include <thread>

#include "sim/core/error.hpp"
#include "sim/core/stop_request.hpp"
#include "app/explore/results_file.hpp"
#ifdef PLACESIM_HAVE_MPI
#include "app/explore/mpi/mpi_sweep.hpp"
#endif

namespace placesim::cli {

namespace {

// The results file's lock, for the second signal to remove (a handler may not allocate).
char g_lock_path[4096];
std::atomic<int> g_signals{0};
std::atomic<bool> g_terminate{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

constexpr char kStopping[] =
    "\nplacesim: stopping: no new sweep points start, and searches under way end within seconds with their best "
    "plan so far (again to quit at once)\n";
constexpr char kTerminating[] =
    "\nplacesim: terminating (SIGTERM): the finished sweep points are written now, and the run ends within 5 s\n";
// How long a SIGTERM waits for the points under way (TermWatch).
constexpr std::chrono::seconds kTermGrace{5};

// The first Ctrl-C requests a stop (sim/core/stop_request.hpp) and says so at once; a second
// signal ends the process as the signal would, removing the lock first (the results file holds
// every point written before; the next run removes a temporary file left half-written). The
// first SIGTERM also has TermWatch end the run within kTermGrace. Only async-signal-safe calls
// here.
void on_signal(int sig) {
  if (sig == SIGTERM && g_signals.load() == 0 && !g_terminate.exchange(true)) {
    g_signals = 1;
    request_stop();
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kTerminating, sizeof kTerminating - 1);
    return;
  }
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
    g_terminate = false;
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

// SIGTERM (`timeout`, a service manager, a batch system's time limit) does not wait for a long
// point as Ctrl-C does: the points finished so far are written at once (the file's writes are
// otherwise spaced out), and when the sweep has not ended kTermGrace later the process ends as
// the signal would, its lock removed, its file holding every finished point.
class TermWatch {
 public:
  TermWatch(std::mutex& file_mu, explore::ResultsFile& file)
      : thread_([this, &file_mu, &file] { watch(file_mu, file); }) {}
  ~TermWatch() {
    {
      const std::lock_guard<std::mutex> l(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  TermWatch(const TermWatch&) = delete;
  TermWatch& operator=(const TermWatch&) = delete;

 private:
  void watch(std::mutex& file_mu, explore::ResultsFile& file) {
    std::unique_lock<std::mutex> l(mu_);
    // A signal handler cannot notify a condition variable: poll the flag it sets.
    while (!done_ && !g_terminate) cv_.wait_for(l, std::chrono::milliseconds(50));
    if (done_) return;
    l.unlock();
    try {
      const std::lock_guard<std::mutex> f(file_mu);
      file.finish();
    } catch (...) {  // a full disk: the sweep's own write reports it
    }
    l.lock();
    if (cv_.wait_for(l, kTermGrace, [this] { return done_; })) return;
    const std::lock_guard<std::mutex> f(file_mu);  // no write under way
    if (g_lock_path[0] != '\0') ::unlink(g_lock_path);
    ::signal(SIGTERM, SIG_DFL);
    ::kill(::getpid(), SIGTERM);
    ::pause();
  }

  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

std::optional<explore::RunSet> run_to_file(const explore::Scenario& s, explore::RunOptions ro, const SweepFile& out) {
#ifdef PLACESIM_HAVE_MPI
  explore::mpi::Session mpi;
  if (mpi.rank() > 0) {
    mpi.work(s, ro.trace);
    return std::nullopt;
  }
  if (mpi.size() > 1) ro.serve = [&](explore::PointQueue& q) { mpi.serve(q); };
#endif
  explore::ResultsFile file(out.path, explore::empty_set(s, out.command), out.resume);

  const StopSignals signals(out.path);
  ro.skip = file.done();
  ro.stop = &stop_flag();
  std::mutex file_mu;  // the sweep's writes and TermWatch's
  ro.on_point = [&](std::vector<explore::RunResult> runs) {
    const std::lock_guard<std::mutex> l(file_mu);
    file.add(std::move(runs));
  };
  try {
    {
      const TermWatch term(file_mu, file);
      explore::run_scenario(s, ro);
    }
    file.finish();
  } catch (const InputError& e) {
    file.discard();  // bad input before any point finished: nothing is left of this run
    if (file.points_written() == 0) throw;
    throw InputError(e.loc(), fmt::format("{} ({} keeps the {} sweep point(s) finished before)", e.detail(),
                                          out.path, file.points_written()));
  } catch (const OutputError& e) {  // a full disk: the file holds what the last good write put there
    throw OutputError(fmt::format("{}; {} holds {} of the {} sweep point(s) finished: make room and run the same "
                                  "command with --resume for the rest",
                                  e.what(), out.path, file.points_written(), file.points_finished()));
  } catch (...) {
    file.finish();  // what finished stays
    throw;
  }
  const explore::RunSet& set = file.finish();  // written above: the set, nothing more to write
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
