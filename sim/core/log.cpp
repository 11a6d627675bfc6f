#include "sim/core/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include "sim/core/activity.hpp"

namespace placesim {

spdlog::logger& log() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto l = spdlog::stderr_color_mt("placesim");
    l->set_pattern("placesim: %^%l%$: %v");
    l->set_level(spdlog::level::warn);
    return l;
  }();
  return *logger;
}

void set_log_level(spdlog::level::level_enum level) { log().set_level(level); }

TimedStep::TimedStep(const char* what) : what_(what), on_(log().should_log(spdlog::level::info)) {
  if (on_) start_ = std::chrono::steady_clock::now();
}

TimedStep::~TimedStep() {
  if (!on_) return;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string& whose = current_activity();  // a sweep's point and placer, when in one
  if (whose.empty()) {
    log().info("{}: {:.3f} s", what_, s);
  } else {
    log().info("{}: {}: {:.3f} s", whose, what_, s);
  }
}

}  // namespace placesim
