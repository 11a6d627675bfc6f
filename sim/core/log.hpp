// Logging goes to stderr only, so that `--json` output on stdout stays one clean document.
#pragma once

#include <spdlog/spdlog.h>

namespace placesim {

spdlog::logger& log();
void set_log_level(spdlog::level::level_enum level);

}  // namespace placesim
