// Logging goes to stderr only, so that `--json` output on stdout stays one clean document.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>

namespace placesim {

spdlog::logger& log();
void set_log_level(spdlog::level::level_enum level);

// Under -v, how long a step of a command took: "<what>: 0.123 s" at info level when the scope
// ends (after the thread's activity, activity.hpp, when it has one: a sweep's point and placer),
// so that a user sees where a slow run goes (reading, lowering, simulating). Nothing, and no
// clock read, at the default level.
class TimedStep {
 public:
  explicit TimedStep(const char* what);
  ~TimedStep();
  TimedStep(const TimedStep&) = delete;
  TimedStep& operator=(const TimedStep&) = delete;

 private:
  const char* what_;
  bool on_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace placesim
