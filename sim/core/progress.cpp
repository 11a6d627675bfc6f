#include "sim/core/progress.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sim/core/log.hpp"

namespace placesim {
namespace {

using namespace std::chrono_literals;

double now_s() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// "0:07", "12:30", "1:02:03".
std::string clock_text(double s) {
  const long t = std::lround(std::max(0.0, s));
  if (t >= 3600) return fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60);
  return fmt::format("{}:{:02}", t / 60, t % 60);
}

int terminal_width() {
  winsize w{};
  return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0 ? w.ws_col : 100;
}

constexpr auto kRedraw = 250ms;           // a terminal's line
constexpr auto kPlainPeriod = 10s;        // a plain line
constexpr double kFirstBarAfterS = 1.0;   // no bar flashes by for a run shorter than this

}  // namespace

std::string progress_line(const std::string& unit, int done, int total, double elapsed_s,
                          const std::vector<ActivityState>& running, int bar_width) {
  std::string line;
  if (bar_width > 0 && total > 0) {
    const int filled = static_cast<int>(static_cast<long>(bar_width) * done / total);
    line = '[' + std::string(filled, '#') + std::string(bar_width - filled, '-') + "] ";
  }
  line += total > 0 ? fmt::format("{}/{} {}", done, total, unit) : fmt::format("{} {}", done, unit);
  line += ", " + clock_text(elapsed_s) + " elapsed";
  if (total > 0 && done > 0 && done < total) line += ", ETA " + clock_text(elapsed_s / done * (total - done));
  if (!running.empty()) {
    const ActivityState& slowest = running.front();
    line += fmt::format("; {}: {} {:.1f} s", running.size() > 1 ? "slowest" : "running", slowest.label, slowest.seconds);
    if (!slowest.detail.empty()) line += " (" + slowest.detail + ")";
  }
  return line;
}

Progress::Progress(std::string unit, int total)
    : unit_(std::move(unit)), total_(total), started_(now_s()) {
  terminal_ = ::isatty(STDERR_FILENO) && !log().should_log(spdlog::level::info);
  thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (shown_) show(true);
}

void Progress::done(int items, int total) {
  std::lock_guard<std::mutex> lock(mu_);
  done_ = items;
  if (total >= 0) total_ = total;
}

void Progress::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, terminal_ ? std::chrono::duration_cast<std::chrono::milliseconds>(kRedraw) : kPlainPeriod,
                         [this] { return stop_; })) {
    if (terminal_ && now_s() - started_ < kFirstBarAfterS) continue;
    lock.unlock();
    show(false);
    lock.lock();
  }
}

void Progress::show(bool last) {
  int done = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done = done_;
    shown_ = true;
  }
  const double elapsed = now_s() - started_;
  if (terminal_) {
    const int width = terminal_width();
    std::string line = progress_line(unit_, done, total_, elapsed, last ? std::vector<ActivityState>{} : activities(),
                                     std::min(30, width / 4));
    if (static_cast<int>(line.size()) >= width) line.resize(width - 1);
    std::fprintf(stderr, "\r\x1b[K%s%s", line.c_str(), last ? "\n" : "");
  } else {
    const std::string line = progress_line(unit_, done, total_, elapsed, last ? std::vector<ActivityState>{} : activities(), 0);
    std::fprintf(stderr, "placesim: %s\n", line.c_str());
  }
  std::fflush(stderr);
}

}  // namespace placesim
