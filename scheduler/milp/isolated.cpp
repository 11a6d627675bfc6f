#include "scheduler/milp/isolated.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <poll.h>
#include <fmt/format.h>
#include <new>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/core/activity.hpp"
#include "sim/core/child_call.hpp"
#include "sim/core/stop_request.hpp"
#include "sim/core/units.hpp"

namespace placesim::scheduler::milp {
namespace {

using Clock = std::chrono::steady_clock;

LiveSolve* t_live = nullptr;  // set in the child only (one thread: the one that forked)

// How often the parent shows what the search has found (and looks for a stop request).
constexpr int kLiveEveryMs = 500;
// How long a search may take to end once a stop is requested: CBC stops at its next event, but
// not inside one LP.
constexpr auto kStopGrace = std::chrono::seconds(3);

// "incumbent 12.34 ms, bound 10.10 ms (gap 17.9%), 1520 nodes": as times where the objective's
// unit is known, else in the MILP's own objective units.
std::string live_text(const LiveSolve& live, double seconds_per_unit) {
  const double inc = live.incumbent.load(), bound = live.bound.load();
  auto value = [&](double v) {
    return seconds_per_unit > 0 ? units::format_seconds(v * seconds_per_unit) : fmt::format("{:.4g}", v);
  };
  std::string s = "MILP ";
  s += inc < kInf ? "incumbent " + value(inc) : std::string("no incumbent yet");
  if (bound > -kInf) s += ", bound " + value(bound);
  if (inc < kInf && bound > -kInf) s += fmt::format(" (gap {:.1f}%)", 100 * relative_gap(inc, bound));
  return s + fmt::format(", {} nodes", live.nodes.load());
}

Result failed(Status status, std::string message) {
  Result r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// The Result as bytes: status, nodes, objective, bound, gap, message, values.
template <typename T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

std::string encode(const Result& r) {
  std::string out;
  put(out, static_cast<std::int32_t>(r.status));
  put(out, static_cast<std::int64_t>(r.nodes));
  put(out, r.objective);
  put(out, r.best_bound);
  put(out, r.gap);
  put(out, static_cast<std::uint64_t>(r.message.size()));
  out += r.message;
  put(out, static_cast<std::uint64_t>(r.values.size()));
  out.append(reinterpret_cast<const char*>(r.values.data()), r.values.size() * sizeof(double));
  return out;
}

class Reader {
 public:
  explicit Reader(const std::string& in) : in_(in) {}
  template <typename T>
  T get() {
    T v{};
    if (sizeof v > in_.size() - pos_) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, in_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string bytes(std::uint64_t n) {
    if (n > in_.size() - pos_) {  // not pos_ + n: a corrupt n would wrap around
      ok_ = false;
      return {};
    }
    std::string s = in_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  bool complete() const { return ok_ && pos_ == in_.size(); }

 private:
  const std::string& in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

std::optional<Result> decode(const std::string& in) {
  Reader rd(in);
  Result r;
  const std::int32_t status = rd.get<std::int32_t>();
  if (status < 0 || status > static_cast<std::int32_t>(Status::Error)) return std::nullopt;
  r.status = static_cast<Status>(status);
  r.nodes = rd.get<std::int64_t>();
  r.objective = rd.get<double>();
  r.best_bound = rd.get<double>();
  r.gap = rd.get<double>();
  r.message = rd.bytes(rd.get<std::uint64_t>());
  const std::uint64_t count = rd.get<std::uint64_t>();
  if (count > in.size() / sizeof(double)) return std::nullopt;  // more values than bytes: corrupt
  const std::string values = rd.bytes(count * sizeof(double));
  if (!rd.complete()) return std::nullopt;
  r.values.resize(count);
  if (count) std::memcpy(r.values.data(), values.data(), values.size());  // data() may be null when empty
  return r;
}

}  // namespace

LiveSolve* live_solve() { return t_live; }

Result run_isolated(const std::function<Result()>& solve, std::optional<Clock::time_point> kill_at,
                    double seconds_per_unit) {
  int fds[2];
  if (::pipe(fds) != 0) return failed(Status::Error, std::string("cannot start the solver: pipe: ") + std::strerror(errno));
  void* shared = ::mmap(nullptr, sizeof(LiveSolve), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  LiveSolve* live = shared == MAP_FAILED ? nullptr : new (shared) LiveSolve;
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (live) ::munmap(shared, sizeof(LiveSolve));
    return failed(Status::Error, std::string("cannot start the solver: fork: ") + std::strerror(errno));
  }
  if (pid == 0) {  // the child: solve, report, and leave without running the parent's exit code
    // Ends with placesim, however that ends (a second Ctrl-C, a kill): no orphan keeps solving.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);
    ::close(fds[0]);
    t_live = live;
    write_all(fds[1], encode(solve()));
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string data;
  bool killed = false;
  char buf[1 << 16];
  bool stop_passed_on = false;
  for (;;) {
    if (!stop_passed_on && stop_requested()) {
      stop_passed_on = true;
      if (live) live->stop = true;
      const Clock::time_point soon = Clock::now() + kStopGrace;
      kill_at = kill_at ? std::min(*kill_at, soon) : soon;
    }
    int wait_ms = kLiveEveryMs;
    bool kill_due = false;
    if (kill_at) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*kill_at - Clock::now()).count();
      kill_due = left <= kLiveEveryMs;
      wait_ms = static_cast<int>(std::clamp<long long>(left, 0, kLiveEveryMs));
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0 && !kill_due) {
      if (live) note_activity(live_text(*live, seconds_per_unit));
      continue;
    }
    if (ready == 0) {
      ::kill(pid, SIGKILL);
      killed = true;
      break;
    }
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of the child's report (or a read error: judged below)
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (live) {
    note_activity("");
    ::munmap(shared, sizeof(LiveSolve));
  }
  if (killed) {
    return failed(Status::NoSolution, stop_passed_on
                                          ? "a stop was requested and CBC did not end within 3 s (one LP can run that "
                                            "long); stopped, its incumbent lost"
                                          : "CBC did not stop within its time limit and grace (one LP can run that "
                                            "long); stopped, its incumbent lost");
  }
  if (WIFSIGNALED(wstatus)) {
    const int sig = WTERMSIG(wstatus);
    return failed(Status::Error, "CBC died (signal " + std::to_string(sig) + ": " + ::strsignal(sig) + ")");
  }
  std::optional<Result> r = decode(data);
  if (!r) return failed(Status::Error, "CBC's report was cut short (exit status " + std::to_string(WEXITSTATUS(wstatus)) + ")");
  return *r;
}

}  // namespace placesim::scheduler::milp
