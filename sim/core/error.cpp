#include "sim/core/error.hpp"

#include <cstdio>
#include <cstdlib>

namespace placesim {

std::string SourceLoc::str() const {
  if (file.empty() && line == 0) return "";
  std::string s = file.empty() ? std::string("<input>") : file;
  if (line > 0) {
    s += ":" + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
  }
  return s;
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
