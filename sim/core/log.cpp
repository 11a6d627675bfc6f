#include "sim/core/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

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

}  // namespace placesim
