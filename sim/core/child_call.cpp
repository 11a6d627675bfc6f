#include "sim/core/child_call.hpp"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <sstream>

#include "sim/core/error.hpp"

namespace placesim {

namespace {

// A child waiting without using CPU (blocked for good) is killed after this many times its CPU
// limit in wall time.
constexpr int kWallTimes = 10;

// The child's report: one tag byte, then the answer ('a') or an error message ('i' an
// InputError, 'x' any other exception).
std::string report(const std::function<std::string()>& work) {
  try {
    return 'a' + work();
  } catch (const InputError& e) {
    return std::string("i") + e.what();
  } catch (const std::exception& e) {
    return std::string("x") + e.what();
  } catch (...) {
    return "xan unknown exception";
  }
}

// The CPU time `pid` has used (user and system), from /proc; 0 when it cannot be read.
double cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t name_end = stat.rfind(')');  // the command name may hold spaces
  if (name_end == std::string::npos) return 0;
  std::istringstream fields(stat.substr(name_end + 1));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int k = 3; k <= 15 && fields >> field; ++k) {  // fields are numbered from 1: pid, (comm), state...
    if (k == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (k == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

}  // namespace

bool write_all(int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string call_in_child(const std::function<std::string()>& work, const std::string& where,
                          std::chrono::milliseconds limit) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {  // the child: work, report, leave without the parent's exit handlers
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);
    ::close(fds[0]);
    write_all(fds[1], report(work));
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string data;
  bool late = false, busy = false;
  const double cpu_limit = static_cast<double>(limit.count()) / 1000.0;
  const auto deadline = std::chrono::steady_clock::now() + kWallTimes * limit;
  char buf[1 << 16];
  for (;;) {
    // Rounded up: truncated, the last fraction of a millisecond read as none left, and a child
    // was ended up to a millisecond before its bound.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    busy = cpu_seconds(pid) > cpu_limit;
    if (left <= 0 || busy) {
      late = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const SourceLoc at{where};
  if (late && busy) throw InputError(at, fmt::format("reading it used {} s of CPU without ending", cpu_limit));
  if (late) throw InputError(at, fmt::format("reading it did not end within {} s", kWallTimes * cpu_limit));
  if (WIFSIGNALED(status))
    throw InputError(at, fmt::format("reading it crashed ({}): the file is damaged", strsignal(WTERMSIG(status))));
  if (data.empty()) throw InputError(at, "reading it ended without an answer: the file is damaged");
  const char tag = data[0];
  data.erase(0, 1);
  if (tag == 'a') return data;
  if (tag == 'i') throw InputError(data);
  throw InputError(at, "reading it failed: " + data);
}

}  // namespace placesim
