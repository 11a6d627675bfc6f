#include "sim/core/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

namespace placesim {

std::string SourceLoc::str() const {
  if (file.empty() && line == 0) return "";
  const std::string name = file.empty() ? std::string("<input>") : file.str();
  if (line <= 0) return name;
  return column > 0 ? fmt::format("{}:{}:{}", name, line, column) : fmt::format("{}:{}", name, line);
}

static std::string with_loc(const SourceLoc& loc, const std::string& what) {
  const std::string where = loc.str();
  return where.empty() ? what : where + ": " + what;
}

InputError::InputError(SourceLoc loc, const std::string& what)
    : std::runtime_error(with_loc(loc, what)), loc_(std::move(loc)), detail_(what) {}

void assertion_failed(const char* expr, const char* file, int line, const std::string& msg) {
  std::fprintf(stderr, "placesim: internal error at %s:%d: %s (%s)\n", file, line, msg.c_str(), expr);
  std::abort();
}

}  // namespace placesim
